"""Driving VERL's own agent-loop and reward-loop workers in this process, on CPU.

`AgentLoopWorker` and `RewardLoopWorker` are VERL's real classes (Ray normally wraps them in
actors; here they are called directly). Generation goes to `ScriptedClient`, which stands in
for VERL's LLM server client: it decodes the prompt tokens, asks the scripted model server
(`prove.rollout.ScriptedServer`, a test double replaying written answers) for the next answer
over HTTP, and returns its tokens.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx2

REWARD = str(Path(__file__).resolve().parents[2] / "src" / "prove" / "integrations" / "verl" / "reward.py")


def compose(model_dir: Path, out: Path, *extra: str) -> Any:
    """VERL's trainer config (its own `ppo_trainer.yaml`) for the tiny model and an export in `out`."""
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    overrides = [
        f"actor_rollout_ref.model.path={model_dir}", f"data.train_files={out}/train.parquet",
        f"data.val_files={out}/val.parquet", "data.max_prompt_length=16384", "data.max_response_length=8192",
        "data.return_raw_chat=True", "actor_rollout_ref.rollout.prompt_length=16384",
        "actor_rollout_ref.rollout.response_length=8192", "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.multi_turn.enable=True", "actor_rollout_ref.rollout.multi_turn.format=hermes",
        "actor_rollout_ref.rollout.multi_turn.max_user_turns=5",
        "actor_rollout_ref.rollout.multi_turn.max_assistant_turns=10",
        "actor_rollout_ref.rollout.multi_turn.max_parallel_calls=8",
        "actor_rollout_ref.rollout.multi_turn.max_tool_response_length=4096",
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={out}/agent_loop.yaml",
        f"reward.custom_reward_function.path={REWARD}", "reward.custom_reward_function.name=compute_score",
        *extra,
    ]
    config_dir = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return hydra_compose(config_name="ppo_trainer", overrides=overrides)


def compose_exported(model_dir: Path, out: Path, budget: Any, *extra: str) -> Any:
    """VERL's trainer config with the exported launch script's own overrides (caps and budgets included)."""
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from prove.integrations.verl.export import overrides

    values = {"$HERE": str(out), "$MODEL": str(model_dir), "$LR": "1e-6", "$TP": "1", "$REWARD": REWARD,
              "$NGPUS": "1", "$NNODES": "1", "$STEPS": "1", "$EXPERIMENT": "test"}
    items = []
    for o in overrides(str(out), budget=budget):
        for k, v in values.items():
            o = o.replace(k, v)
        items.append(o)
    config_dir = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return hydra_compose(config_name="ppo_trainer", overrides=[*items, *extra])


class ScriptedClient:
    """VERL's `server_manager.generate` contract, answered by the scripted model server."""

    def __init__(self, url: str, tokenizer: Any) -> None:
        self.url = url.rstrip("/") + "/completions"
        self.tokenizer = tokenizer
        self.eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
        self.http = httpx2.Client(timeout=60, trust_env=False)
        self.prompts: list[str] = []

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any],
                       **kwargs: Any) -> Any:
        from verl.workers.rollout.replica import TokenOutput

        prompt = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        self.prompts.append(prompt)
        loop = asyncio.get_running_loop()
        response = await loop.run_in_executor(
            None, lambda: self.http.post(self.url, json={"model": "scripted", "prompt": prompt}))
        text = response.json()["choices"][0]["text"]
        ids = self.tokenizer.encode(text, add_special_tokens=False) + [self.eos]
        return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids) if sampling_params.get("logprobs") else None,
                           num_preempted=0)


def workers(config: Any, client: ScriptedClient, *, reward: bool = True) -> Any:
    """VERL's AgentLoopWorker, with VERL's RewardLoopWorker behind it when `reward`."""
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    # VERL's workers keep the event loop current when they are built; rollouts run on that one.
    asyncio.set_event_loop(asyncio.new_event_loop())
    handles = None
    if reward:
        reward_worker = RewardLoopWorker(config)
        handles = [SimpleNamespace(compute_score=SimpleNamespace(remote=reward_worker.compute_score))]
    return AgentLoopWorker(config, client, reward_loop_worker_handles=handles)


def batch(config: Any, parquet: Path, tokenizer: Any, repeat: int = 1) -> Any:
    """The rows of a Parquet file as VERL's trainer feeds them to rollout (its dataset and collate)."""
    from verl.protocol import DataProto
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    ds = RLHFDataset(data_files=[str(parquet)], tokenizer=tokenizer, config=config.data)
    data = DataProto.from_single_dict(collate_fn([ds[i] for i in range(len(ds))]))
    return data.repeat(repeat, interleave=True) if repeat > 1 else data


def run(worker: Any, data: Any) -> Any:
    """One `generate_sequences` call, on the loop the workers were built with."""
    return asyncio.get_event_loop().run_until_complete(worker.generate_sequences(data))
