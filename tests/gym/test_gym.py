"""`prove.gym`: the Gymnasium-style API over live episodes, against `prove eval` on the same examples."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import prove.gym
from prove.records import Example
from prove.rollout import Limits, OpenAIPolicy, ScriptedServer

from ..integrations.scripted_eval import eval_rewards, scripted_data, scripted_model


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Example], Path, Path]:
    return scripted_data(tmp_path_factory, "gym")


@pytest.fixture(scope="module")
def server(data: tuple[list[Example], Path, Path]) -> Iterator[ScriptedServer]:
    with ScriptedServer(scripted_model(data[0])) as srv:
        yield srv


def play(env: prove.gym.ProveEnv, policy: OpenAIPolicy, example_id: str) -> tuple[float, dict, list[float]]:
    """One episode of the policy: its final reward, the last info, and every step's reward."""
    obs, info = env.reset(options={"example_id": example_id})
    tools = info["tools"]
    rewards = []
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, tools).message)
        rewards.append(reward)
        if terminated or truncated:
            return reward, info, rewards


def test_scripted_policy_gets_prove_evals_rewards(data: tuple[list[Example], Path, Path],
                                                  server: ScriptedServer) -> None:
    examples, path, out = data
    want = eval_rewards(path, server.url, out)
    env = prove.gym.make(path)
    got = {}
    with OpenAIPolicy(server.url, "scripted") as policy:
        for ex in examples:
            reward, info, rewards = play(env, policy, ex.id)
            assert all(r == 0.0 for r in rewards[:-1]), "the reward comes at the episode's end only"
            assert info["trajectory"]["example_id"] == ex.id and info["reward"]["score"] == reward
            got[ex.id] = reward
    env.close()
    assert got == want
    assert len(set(want.values())) >= 3, f"the sample's rewards should differ: {want}"


def _hermes(call: object) -> str:
    return f'<tool_call>{json.dumps({"name": call.name, "arguments": call.arguments})}</tool_call>'


def test_reset_step_and_termination(data: tuple[list[Example], Path, Path]) -> None:
    examples, _, _ = data
    by_id = {ex.id: ex for ex in examples}
    chain = by_id["bank-chain"]
    env = prove.gym.make(chain)
    obs, info = env.reset(seed=0)
    assert info["example_id"] == "bank-chain" and obs[-1]["role"] == "user" and info["tools"]
    for call in chain.turns[0].calls:                        # a text action with a Hermes block
        obs, reward, terminated, truncated, info = env.step(_hermes(call))
        assert (reward, terminated, truncated) == (0.0, False, False) and info["step"] == "tools"
        assert obs[-1]["role"] == "tool" and '"error"' not in obs[-1]["content"]
    obs, reward, terminated, truncated, info = env.step({"role": "assistant", "content": "Done."})
    assert terminated and not truncated and info["status"] == "done"
    assert reward == info["reward"]["score"] == info["reward"]["best"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step("again")

    two = prove.gym.make(by_id["bank-two-turns"], limits=Limits(max_assistant_turns=2))
    obs, info = two.reset()
    obs, reward, terminated, truncated, info = two.step(_hermes(by_id["bank-two-turns"].turns[0].calls[0]))
    assert info["step"] == "tools"
    obs, reward, terminated, truncated, info = two.step("Your balance is shown above.")
    assert truncated and not terminated and info["status"] == "assistant_turn_cap"
    assert 0.0 < reward < info["reward"]["best"]
    two.reset()
    with pytest.raises(ValueError, match="assistant"):
        two.step({"role": "user", "content": "hi"})
    two.close()
    env.close()


def test_seeded_draws_and_registered_ids(data: tuple[list[Example], Path, Path]) -> None:
    examples, path, _ = data
    ids = prove.gym.register_dataset(path, "sample")
    assert ids[0] == "sample" and "sample-banking" in ids and "sample-calendar" in ids
    env = prove.gym.make("sample-calendar")
    assert {s for ex in env.examples for s in ex.servers} >= {"calendar"}
    assert all("calendar" in ex.servers for ex in env.examples)
    draws = [env.reset(seed=7)[1]["example_id"] for _ in range(2)]
    again = [env.reset(seed=7)[1]["example_id"] for _ in range(2)]
    assert draws[0] == again[0]
    env.close()
    assert "prove/banking-v0" in prove.gym.ids()
    with pytest.raises(KeyError, match="neither a registered id"):
        prove.gym.make("no-such-env")


def test_a_server_id_synthesizes_its_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVE_CACHE", str(tmp_path))
    env = prove.gym.make("prove/calendar-v0")
    assert len(env.examples) == prove.gym.SERVER_EXAMPLES and all(ex.servers == ["calendar"] for ex in env.examples)
    assert (tmp_path / "gym" / "calendar-n50-seed0" / "dataset.jsonl").is_file()
    obs, info = env.reset(seed=1)
    assert info["servers"] == ["calendar"]
    env.close()


def test_importing_prove_gym_imports_no_heavy_package() -> None:
    code = ("import sys, prove.gym; heavy = [m for m in ('numpy', 'gymnasium', 'torch', 'verifiers', 'openenv') "
            "if m in sys.modules]; print(heavy)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "[]", run.stderr


def test_gymnasium_make(data: tuple[list[Example], Path, Path], server: ScriptedServer, tmp_path: Path) -> None:
    gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install 'prove-rl[gym]')")
    examples, path, _ = data
    prove.gym.register_dataset(path, "sample")
    prove.gym.register_gymnasium()
    env = gymnasium.make("sample")
    assert isinstance(env.unwrapped, gymnasium.Env)
    assert env.observation_space.contains([{"role": "user", "content": "hi"}])
    assert env.action_space.contains("text") and not env.action_space.contains({"role": "user"})
    with OpenAIPolicy(server.url, "scripted") as policy:
        inner = env.unwrapped.env
        reference = prove.gym.make(path)
        for ex in examples[:4]:
            obs, info = env.reset(seed=0, options={"example_id": ex.id})
            while True:
                obs, reward, terminated, truncated, info = env.step(policy(obs, info.get("tools") or
                                                                        inner.episode.script.tools).message)
                if terminated or truncated:
                    break
            assert reward == play(reference, policy, ex.id)[0]
        reference.close()
    env.close()
    code = "import gymnasium; env = gymnasium.make('prove.gym:prove/banking-v0'); print(env.spec.id)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PROVE_CACHE": str(tmp_path)})
    assert run.returncode == 0 and run.stdout.strip() == "prove/banking-v0", run.stderr
