"""`prove export verl` and the schema flattening, checked against VERL's own classes and config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from prove.env import Session, registry
from prove.integrations.verl.schema import flatten_property, flatten_tool
from prove.records import Example, write_jsonl

from .conftest import missing

if missing("pyarrow", "yaml"):
    pytest.skip("pyarrow and pyyaml are not installed (pip install 'prove-rl[data]')", allow_module_level=True)

import pyarrow.parquet as pq  # noqa: E402
import yaml  # noqa: E402

from prove.integrations.verl.export import FLOORS, budget, export, learning_rate, needs, overrides  # noqa: E402

NO_VERL = missing("verl")
needs_verl = pytest.mark.skipif(NO_VERL is not None, reason="verl is not installed (pip install 'prove-rl[verl]')")


def test_flatten_moves_constraints_into_descriptions() -> None:
    prop = flatten_property({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 3,
                             "description": "labels"})
    assert prop == {"type": "array", "description": 'labels (a list of one of "a", "b"; at most 3 items)'}
    prop = flatten_property({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None})
    assert prop["type"] == "integer" and "at least 1" in prop["description"] and "default null" in prop["description"]
    assert flatten_property({"enum": [1, 2]}) == {"type": "integer", "description": "", "enum": [1, 2]}
    nested = flatten_property({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    assert nested["description"] == "an object {a: string}"


@needs_verl
def test_every_tool_of_every_server_passes_verls_schema_whole() -> None:
    from verl.tools.schemas import OpenAIFunctionToolSchema

    count = 0
    for name in registry.names():
        try:
            server = registry.get(name)
        except Exception:  # noqa: BLE001 - a broken server is the conformance suite's to report
            continue
        with Session([server]) as s:
            for tool in s.tool_schemas():
                flat = flatten_tool(tool)
                parsed = OpenAIFunctionToolSchema.model_validate(flat)
                # Nothing is silently dropped by VERL's model: what we write is what it keeps.
                assert parsed.model_dump(exclude_unset=True, exclude_none=True) == flat, tool["function"]["name"]
                count += 1
    assert count >= 40


def test_export_writes_verl_inputs(tmp_path: Path, examples: list[Example]) -> None:
    result = export(examples, tmp_path, val=1, model="Qwen/Qwen3-8B")
    assert (result.train, result.val) == (4, 1)
    rows = pq.read_table(tmp_path / "train.parquet").to_pylist() + pq.read_table(tmp_path / "val.parquet").to_pylist()
    by_id = {r["extra_info"]["example_id"]: r for r in rows}
    assert set(by_id) == {ex.id for ex in examples}
    two = by_id["bank-two-turns"]
    assert two["agent_name"] == "prove_agent" and two["data_source"] == "prove/banking"
    assert [m["role"] for m in two["prompt"]] == ["system", "user"]
    assert two["extra_info"]["followups"] == ["Pay 25 dollars from it to AT&T Wireless (PAY-10004)."]
    assert two["extra_info"]["tools_kwargs"] == {"prove": {"servers": ["banking"], "world": 0}}
    gt = json.loads(two["reward_model"]["ground_truth"])
    ex = next(e for e in examples if e.id == "bank-two-turns")
    assert gt["turns"] == ex.model_dump(mode="json")["turns"] and gt["fingerprint"] == ex.fingerprint
    assert "messages" not in gt
    assert json.loads(two["extra_info"]["tools"]) == [t.model_dump(mode="json", exclude_none=True) for t in ex.tools]
    abstain = by_id["bank-abstain"]
    assert "freeze_card" not in abstain["extra_info"]["tool_selection"]

    loops = yaml.safe_load((tmp_path / "agent_loop.yaml").read_text())
    assert loops == [{"name": "prove_agent", "_target_": "prove.integrations.verl.agent_loop.ProveAgentLoop",
                      "env_url": None, "env_ray": None, "call_timeout": 10.0, "max_calls": 50,
                      "record_diff": False}]
    tools = yaml.safe_load((tmp_path / "tool_config.yaml").read_text())["tools"]
    assert {t["tool_schema"]["function"]["name"] for t in tools} >= {"get_account", "list_calendars"}
    assert all(t["class_name"] == "prove.integrations.verl.tool.ProveTool" for t in tools)

    script = (tmp_path / "train_grpo.sh").read_text()
    assert os.access(tmp_path / "train_grpo.sh", os.X_OK)
    assert subprocess.run(["bash", "-n", str(tmp_path / "train_grpo.sh")]).returncode == 0
    for setting in ("data.train_batch_size=16", "actor_rollout_ref.rollout.n=16", "kl_loss_coef=0.01",
                    "max_user_turns=5", "max_assistant_turns=10", "STEPS:-350", "MODEL:-Qwen/Qwen3-8B"):
        assert setting in script


def test_needs_count_turns_as_verl_does(by_id: dict[str, Example]) -> None:
    # tool round, follow-up, tool round: three turns of the environment; four replies.
    two = needs(by_id["bank-two-turns"])
    assert (two.env_turns, two.replies, two.calls, two.parallel_calls) == (3, 4, 2, 1)
    assert needs(by_id["bank-abstain"]).env_turns == 0


def test_caps_fit_every_reference_conversation(synthesized: list[Example]) -> None:
    b = budget(synthesized)
    each = [needs(ex) for ex in synthesized]
    assert b.fit == b.examples == len(synthesized) and b.cut == {}
    assert b.user_turns == max(FLOORS["user_turns"], *(n.env_turns for n in each))
    assert b.assistant_turns == max(FLOORS["assistant_turns"], *(n.replies for n in each))
    assert b.tool_response_chars >= max(n.tool_chars for n in each)
    # The paper's 5 user turns, counted VERL's way, cut off the longer conversations: and it says so.
    paper = budget(synthesized, user_turns=5)
    longer = sum(n.env_turns > 5 for n in each)
    assert longer > 0 and paper.cut == {"max_user_turns": longer} and paper.fit == len(synthesized) - longer


def test_export_reports_its_caps_and_the_share_that_fits(tmp_path: Path, synthesized: list[Example]) -> None:
    data = tmp_path / "data.jsonl"
    write_jsonl(data, synthesized)
    run = subprocess.run([sys.executable, "-m", "prove", "export", "verl", str(data), str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    b = budget(synthesized)
    assert f"{len(synthesized)} of {len(synthesized)} reference conversations fit them (100%)" in run.stdout
    script = (tmp_path / "out" / "train_grpo.sh").read_text()
    assert f"multi_turn.max_user_turns={b.user_turns}" in script and b.user_turns > 5
    assert f"multi_turn.max_assistant_turns={b.assistant_turns}" in script
    assert f"data.max_response_length={b.response}" in script
    assert yaml.safe_load((tmp_path / "out" / "agent_loop.yaml").read_text())[0]["max_calls"] == b.calls
    cut = subprocess.run([sys.executable, "-m", "prove", "export", "verl", str(data), str(tmp_path / "five"),
                          "--max-user-turns", "5"], capture_output=True, text=True, timeout=300)
    assert cut.returncode == 0 and "cut off by max_user_turns" in cut.stdout


def test_learning_rate_per_family(tmp_path: Path, examples: list[Example]) -> None:
    assert learning_rate("Qwen/Qwen3-4B") == learning_rate("qwen3-8b") == 1e-6
    assert learning_rate("Qwen/Qwen2.5-7B-Instruct") == 1e-6
    assert learning_rate("ibm-granite/granite-4.1-8b") == 5e-7
    # The script picks the same values from $MODEL (its LR block, run alone).
    export(examples, tmp_path, val=1)
    script = (tmp_path / "train_grpo.sh").read_text()
    block = script[script.index('if [ -z "${LR:-}" ]'):script.index("REWARD=")]
    for model in ("Qwen/Qwen3-4B", "Qwen/Qwen2.5-7B", "ibm-granite/granite-4.1-8b"):
        out = subprocess.run(["bash", "-c", f'MODEL="$1"\n{block}\necho "$LR"', "_", model],
                             capture_output=True, text=True)
        assert float(out.stdout) == learning_rate(model), (model, out.stderr)


def _composed(out: Path, examples: list[Example], agent: str = "prove_agent") -> Any:
    """VERL's trainer config (its own `ppo_trainer.yaml`) with the launch script's overrides."""
    import verl
    from hydra import compose, initialize_config_dir

    values = {"$HERE": str(out), "$MODEL": "Qwen/Qwen3-4B", "$LR": "1e-6", "$TP": "1", "$REWARD": "/r.py",
              "$NGPUS": "8", "$NNODES": "1", "$STEPS": "350", "$EXPERIMENT": "x"}
    items = []
    for o in overrides(budget=budget(examples), agent=agent):
        for k, v in values.items():
            o = o.replace(k, v)
        items.append(o)
    config_dir = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return compose(config_name="ppo_trainer", overrides=items)


@needs_verl
def test_launch_settings_exist_in_verls_config(tmp_path: Path, examples: list[Example]) -> None:
    """Every override of the launch script is a key of VERL's own trainer config."""
    export(examples, tmp_path, val=1)
    for agent in ("prove_agent", "tool_agent"):
        cfg = _composed(tmp_path, examples, agent)
        assert cfg.data.train_batch_size == 16 and cfg.actor_rollout_ref.rollout.n == 16
        assert cfg.actor_rollout_ref.actor.kl_loss_coef == 0.01 and cfg.actor_rollout_ref.actor.use_kl_loss
        assert cfg.algorithm.adv_estimator == "grpo" and cfg.trainer.total_training_steps == 350
        multi = cfg.actor_rollout_ref.rollout.multi_turn
        assert (multi.max_user_turns, multi.max_assistant_turns) == (5, 10)     # the floors: short references
        assert cfg.actor_rollout_ref.rollout.agent.default_agent_loop == agent
        assert (multi.tool_config_path is not None) == (agent == "tool_agent")


@needs_verl
def test_main_ppo_finds_what_its_default_path_imports(tmp_path: Path, examples: list[Example]) -> None:
    """VERL 0.9's `main_ppo` runs its v1 trainer by default, which imports TransferQueue (the `verl` extra)."""
    export(examples, tmp_path, val=1)
    cfg = _composed(tmp_path, examples)
    assert cfg.trainer.use_v1
    import transfer_queue  # noqa: F401 - main_ppo's TaskRunnerV1.run imports it first
    from verl.trainer.ppo.v1 import AgentLoopManagerTQ, get_trainer_cls

    assert get_trainer_cls(cfg.trainer.v1.trainer_mode) is not None and AgentLoopManagerTQ is not None


@needs_verl
def test_tool_config_loads_with_verls_loader(tmp_path: Path, examples: list[Example]) -> None:
    from verl.tools.tool_registry import initialize_tools_from_config

    export(examples, tmp_path, val=1)
    tools = initialize_tools_from_config(str(tmp_path / "tool_config.yaml"))
    assert {type(t).__name__ for t in tools} == {"ProveTool"}
    assert {t.name for t in tools} == {t.function.name for ex in examples for t in ex.tools}


def test_cli_export(tmp_path: Path, examples: list[Example]) -> None:
    data = tmp_path / "data.jsonl"
    write_jsonl(data, examples)
    run = subprocess.run([sys.executable, "-m", "prove", "export", "verl", str(data), str(tmp_path / "out"),
                          "--val", "2", "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert (report["train"], report["val"]) == (3, 2) and Path(report["files"]["script"]).exists()
    assert subprocess.run([sys.executable, "-m", "prove", "export", "verl", str(tmp_path / "nope.jsonl"),
                           str(tmp_path / "o")], capture_output=True, text=True).returncode == 2


def test_cli_export_without_pyarrow_names_the_extra(tmp_path: Path, examples: list[Example]) -> None:
    """On the core install (no pyarrow), the command says which extra to install; pyyaml is core."""
    data = tmp_path / "data.jsonl"
    write_jsonl(data, examples)
    code = ("import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None; "
            "from prove.cli import main; sys.argv = ['prove', 'export', 'verl', sys.argv[1], sys.argv[2]]; main()")
    run = subprocess.run([sys.executable, "-c", code, str(data), str(tmp_path / "out")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert "pyarrow" in run.stderr and "prove-rl[data]" in run.stderr and "yaml" not in run.stderr
