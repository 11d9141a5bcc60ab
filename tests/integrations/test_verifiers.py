"""The verifiers environment (verifiers 0.2) against `prove eval` on the same examples.

Needs `pip install -e '.[verifiers]' pytest pytest-timeout hypothesis` (verifiers 0.2 pins
datasets<4.7, which the `test` extra's datasets>=4.7 excludes: they go in separate environments);
skipped otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

vf = pytest.importorskip("verifiers", reason="verifiers is not installed (pip install 'prove-rl[verifiers]')")

from openai import AsyncOpenAI  # noqa: E402
from verifiers.clients import OpenAIChatCompletionsClient  # noqa: E402

from prove.env import registry  # noqa: E402
from prove.records import Example  # noqa: E402
from prove.rollout import Limits, ScriptedServer  # noqa: E402

from .scripted_eval import eval_rewards, scripted_data, scripted_model  # noqa: E402


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Example], Path, Path]:
    return scripted_data(tmp_path_factory, "verifiers")


@pytest.fixture(scope="module")
def server(data: tuple[list[Example], Path, Path]) -> Iterator[ScriptedServer]:
    with ScriptedServer(scripted_model(data[0])) as srv:
        yield srv


def _by_example(results: object) -> dict[str, dict]:
    """Each rollout's output by the example it played."""
    import json

    out = {}
    for row in results["outputs"]:
        info = row["info"] if isinstance(row["info"], dict) else json.loads(row["info"])
        out[info["example_id"]] = row
    return out


def test_scripted_policy_gets_prove_evals_rewards(data: tuple[list[Example], Path, Path],
                                                  server: ScriptedServer) -> None:
    examples, path, out = data
    want = eval_rewards(path, server.url, out)
    env = vf.load_environment("prove.integrations.verifiers", dataset=str(path))
    client = OpenAIChatCompletionsClient(AsyncOpenAI(base_url=server.url, api_key="scripted"))
    results = env.evaluate_sync(client=client, model="scripted", state_columns=["prove_trajectory"])
    rollouts = _by_example(results)
    got = {eid: row["reward"] for eid, row in rollouts.items()}
    assert got == want
    assert len(set(want.values())) >= 3, want
    for eid, row in rollouts.items():
        trajectory = row["prove_trajectory"]
        assert trajectory["example_id"] == eid and trajectory["reward"]["score"] == row["reward"]
        assert row["metrics"]["prove_validity"] == trajectory["reward"]["validity"]
    assert not env.live, "every rollout's episode is closed"


def test_tools_per_example_and_caps(data: tuple[list[Example], Path, Path], server: ScriptedServer) -> None:
    examples, _, _ = data
    by_id = {ex.id: ex for ex in examples}
    env = vf.load_environment("prove.integrations.verifiers", dataset=[by_id["bank-two-turns"], by_id["bank-abstain"]],
                              limits=Limits(max_assistant_turns=1))
    import json

    infos = {json.loads(r["info"])["example_id"]: json.loads(r["info"]) for r in env.dataset}
    for eid, info in infos.items():
        assert [t["name"] for t in info["tool_defs"]] == [t.function.name for t in by_id[eid].tools]
    assert len(infos["bank-abstain"]["tool_defs"]) < len(registry.get("banking").visible_tools), \
        "an abstention's withheld tool is not offered"
    client = OpenAIChatCompletionsClient(AsyncOpenAI(base_url=server.url, api_key="scripted"))
    results = env.evaluate_sync(client=client, model="scripted", state_columns=["prove_trajectory"])
    rollouts = _by_example(results)
    two = rollouts["bank-two-turns"]["prove_trajectory"]
    assert two["meta"]["assistant_turns"] == 1, "the episode's cap ends the rollout"
    assert not env.live


def test_load_environment_filters_and_errors(data: tuple[list[Example], Path, Path]) -> None:
    _, path, _ = data
    env = vf.load_environment("prove.integrations.verifiers", dataset=str(path), servers=["calendar"], limit=2)
    assert 1 <= len(env.dataset) <= 2
    with pytest.raises(RuntimeError, match="no example to play"):     # verifiers wraps the ValueError
        vf.load_environment("prove.integrations.verifiers", dataset=str(path), servers=["nosuch"])
