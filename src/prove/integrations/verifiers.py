"""verifiers (0.2, its `Environment` API) integration: a PROVE dataset as a multi-turn tool environment.

```python
import verifiers as vf
env = vf.load_environment("prove.integrations.verifiers", dataset="out/dataset")
results = env.evaluate_sync(client=AsyncOpenAI(base_url=URL, api_key="-"), model=MODEL)
```

`load_environment(dataset, ...)` builds a `ProveMultiTurnEnv`: its dataset has one row per
example (the prompt up to the first user message; `info` holds the example's id and its tools as
verifiers' `tool_defs`, so each rollout offers the tools its example offers, distractors
included). Each rollout is one live PROVE episode, the same `prove.rollout.Episode` that
`prove eval` and `prove.gym` play: opened on the example's world when the rollout starts
(`setup_state`), fed each assistant reply (`env_response` runs its calls, or brings in the
example's next user turn), and closed and scored by `prove.rollout.close_episode` when it ends,
whatever ends it (the episode's own caps, verifiers' `max_turns`, a timeout, an error). The rubric
is PROVE's reward: `prove_reward` (weight 1) is the score, and each component is a metric
(weight 0); the scored trajectory stays in the state as `prove_trajectory`.

verifiers 0.4's v1 API (tasksets, toolsets) pins `mcp==2.0.0`, which PROVE's `mcp>=2.3`
excludes, so this targets the 0.2 series (`pip install 'prove-rl[verifiers]'`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..records import Example
from ..reward import COMPONENTS, RewardConfig, Scorer
from ..rollout import EnvFactory, Episode, EpisodeError, Limits, close_episode, local_env, script
from . import require

__all__ = ["ProveMultiTurnEnv", "load_environment", "rows"]

vf = require("verifiers", "verifiers", "The verifiers integration")


def rows(examples: Iterable[Example]) -> list[dict[str, Any]]:
    """One dataset row per example: `prompt`, `info` (JSON text: example id and tools) and `answer`."""
    out = []
    for ex in examples:
        sc = script(ex)
        tools = [{"name": t["function"]["name"], "description": t["function"].get("description") or "",
                  "parameters": t["function"].get("parameters") or {"type": "object", "properties": {}}}
                 for t in sc.tools]
        # `info` as JSON text: an Arrow struct would merge every tool's schema into one.
        out.append({"prompt": sc.prompt, "info": json.dumps({"example_id": ex.id, "tool_defs": tools}),
                    "answer": ""})
    return out


def _text(content: Any) -> Any:
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, Mapping) else str(getattr(p, "text", "")) for p in content)
    return content


def _reply(message: Any) -> dict[str, Any]:
    """verifiers' assistant message as the OpenAI chat form an `Episode` reads."""
    raw = message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else dict(message)
    out: dict[str, Any] = {"role": "assistant", "content": _text(raw.get("content"))}
    calls = raw.get("tool_calls") or []
    if calls:
        out["tool_calls"] = [tc if "function" in tc else
                             {"id": tc.get("id"), "type": "function",
                              "function": {"name": tc.get("name"), "arguments": tc.get("arguments")}}
                             for tc in calls]
    if raw.get("reasoning_content"):
        out["reasoning_content"] = raw["reasoning_content"]
    return out


class ProveMultiTurnEnv(vf.MultiTurnEnv):
    """A verifiers environment whose rollouts are live PROVE episodes (see the module docstring).

    Args:
        examples: the dataset.
        config: the reward settings (default: the `prove` preset).
        limits: the episode's caps (`prove.rollout.Limits`, as `prove eval` applies them).
        env: opens an episode's environment (`factory(servers, world)`); in-process sessions
            by default, or `prove.mcp.RemoteEnv` on a `prove serve`.
        call_timeout: seconds a call's SQL may run in the default in-process sessions.
        **kwargs: to `vf.MultiTurnEnv` (`max_turns`, `timeout_seconds`, ...).
    """

    def __init__(self, examples: Sequence[Example], *, config: RewardConfig | None = None,
                 limits: Limits | None = None, env: EnvFactory | None = None,
                 call_timeout: float | None = 10.0, **kwargs: Any) -> None:
        from datasets import Dataset

        self.examples = {ex.id: ex for ex in examples}
        self.scorer = Scorer(examples, config)
        self.limits = limits or Limits()
        self.factory = env or local_env(call_timeout)
        self.live: dict[str, tuple[Episode, Any]] = {}
        rubric = vf.Rubric(funcs=[self.prove_reward], weights=[1.0])
        for component in COMPONENTS:
            if component != "state" or self.scorer.state:      # the state component: only where it is computed
                rubric.add_metric(_component(component))
        super().__init__(dataset=Dataset.from_list(rows(examples)), rubric=rubric, **kwargs)

    async def setup_state(self, state: Any) -> Any:
        """Open the rollout's episode on its example's world."""
        info = state["info"]
        example = self.examples[info["example_id"]]
        sc = script(example)

        def open_episode() -> tuple[Episode, Any]:
            handle = self.factory(sc.servers, sc.world)
            return Episode(sc, handle, self.limits), handle

        self.live[state["trajectory_id"]] = await asyncio.to_thread(open_episode)
        state["prove_trajectory"] = None
        return state

    async def env_response(self, messages: Any, state: Any, **kwargs: Any) -> list[dict[str, Any]]:
        """Play the last assistant reply on the episode: its calls' results, or the next user turn."""
        episode, handle = self.live[state["trajectory_id"]]
        try:
            step = await asyncio.to_thread(episode.step, _reply(messages[-1]))
            answer = step.messages
        except EpisodeError:
            answer = []
        if episode.done:
            await self._finish(state)
            state["final_env_response"] = answer
        return answer

    @vf.stop
    async def prove_episode_done(self, state: Any) -> bool:
        """The episode ended (at its caps, or the conversation is over)."""
        return state.get("prove_trajectory") is not None

    @vf.cleanup
    async def prove_close(self, state: Any) -> None:
        """Close and score an episode that verifiers ended before it ended itself."""
        if state.get("trajectory_id") in self.live:
            episode, _ = self.live[state["trajectory_id"]]
            if not episode.done:
                episode.stop(state.get("stop_condition") or "stopped")
            await self._finish(state)

    async def _finish(self, state: Any) -> None:
        episode, handle = self.live.pop(state["trajectory_id"])
        state["prove_trajectory"] = await asyncio.to_thread(
            close_episode, episode, handle, score=self.scorer.breakdown, state=self.scorer.state)

    async def prove_reward(self, state: Any) -> float:
        """PROVE's reward of the rollout's episode."""
        trajectory = state.get("prove_trajectory")
        return float(trajectory["reward"]["score"]) if trajectory else 0.0


def _component(name: str) -> Any:
    async def metric(state: Any) -> float:
        trajectory = state.get("prove_trajectory")
        value = trajectory["reward"].get(name) if trajectory else None
        return float(value) if value is not None else 0.0

    metric.__name__ = f"prove_{name}"
    return metric


def load_environment(dataset: str | Path | Sequence[Example], *, servers: Sequence[str] | None = None,
                     limit: int | None = None, **kwargs: Any) -> ProveMultiTurnEnv:
    """verifiers' entry point: `vf.load_environment("prove.integrations.verifiers", dataset=PATH)`.

    Args:
        dataset: a dataset file, a `prove synth --out` directory, or the examples themselves.
        servers: only the examples that use one of these servers.
        limit: at most this many examples.
        **kwargs: to `ProveMultiTurnEnv` (config, limits, env, call_timeout, max_turns, ...).
    """
    if isinstance(dataset, (str, Path)):
        from ..gym import load_examples

        examples = load_examples(dataset)
    else:
        examples = list(dataset)
    if servers:
        keep = set(servers)
        examples = [ex for ex in examples if keep & set(ex.servers)]
    if limit is not None:
        examples = examples[:limit]
    if not examples:
        raise ValueError("no example to play")
    return ProveMultiTurnEnv(examples, **kwargs)
