"""`prove_agent`: a VERL agent loop (an `AgentLoopBase` subclass) that plays live PROVE episodes.

For each rollout it opens a fresh episode on the example's world (in-process, on a `prove serve`
through `RemoteEnv`, or on a shared pool of Ray environment actors through `RayEnv`), generates with VERL's server manager, runs every tool call
the policy makes on the episode, brings in the example's scripted follow-up user turns when the
policy answers in words, honours VERL's `multi_turn` caps, and closes the episode at the end,
on errors and on cancellation too. What happened is handed to the reward in the rollout's
extra fields (`extra_fields["prove"]`: the episode's messages after the prompt, with every
tool result, each call's outcome, the final state fingerprint and, when asked, the state
diff), which VERL's reward managers merge into `extra_info`; `prove.integrations.verl.reward.
compute_score` scores from there.

Registered under the name `prove_agent` on import, unless a config registered it first; VERL's
workers import it through the agent loop config that `prove export verl` writes
(`actor_rollout_ref.rollout.agent.agent_loop_config_path`), whose entry may set the
constructor's options:

```yaml
- name: prove_agent
  _target_: prove.integrations.verl.agent_loop.ProveAgentLoop
  env_url: null          # or http://127.0.0.1:8000 (comma-separated workers): episodes on prove serve
  env_ray: null          # or {actors: 8, name: prove-env, num_cpus: 1}: episodes on Ray actors
  call_timeout: 10.0
  max_calls: 50
  record_diff: false
```

The policy's tool calls are read with PROVE's Hermes parser when `multi_turn.format` is
`hermes` (a malformed call is kept and answered with an error, where VERL's parser drops it),
and with VERL's parser for that format otherwise. Turn caps follow VERL's meaning: every turn the
environment takes (a round of tool results, a follow-up user message) counts toward
`max_user_turns`, every generation toward `max_assistant_turns`; the calls of the last reply
still run, so their outcomes and state count.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import Any
from uuid import uuid4

from prove.integrations import require

require("verl", "verl", "prove.integrations.verl.agent_loop")

from verl.experimental.agent_loop import agent_loop as verl_agent_loop  # noqa: E402
from verl.experimental.agent_loop.agent_loop import (  # noqa: E402
    AgentLoopBase,
    AgentLoopOutput,
    register,
)
from verl.experimental.agent_loop.tool_parser import ToolParser  # noqa: E402
from verl.tools.schemas import OpenAIFunctionToolSchema  # noqa: E402
from verl.utils.profiler import simple_timer  # noqa: E402

from prove.env import ProveError  # noqa: E402
from prove.records import plain  # noqa: E402
from prove.rollout import Episode, EpisodeError, Limits, Script  # noqa: E402

from .envs import EnvConfig  # noqa: E402
from .schema import flatten_tool  # noqa: E402

__all__ = ["AGENT_NAME", "ProveAgentLoop", "episode_script"]

log = logging.getLogger("prove.integrations.verl")
AGENT_NAME = "prove_agent"


def _json(value: Any) -> Any:
    if isinstance(value, bytes):
        value = value.decode()
    return json.loads(value) if isinstance(value, str) else value


def episode_script(kwargs: Mapping[str, Any]) -> Script:
    """The episode a rollout plays, from its dataset row (`extra_info`, else the ground truth)."""
    extra = plain(kwargs.get("extra_info") or {})
    reward_model = plain(kwargs.get("reward_model") or {})
    gt = reward_model.get("ground_truth") if isinstance(reward_model, Mapping) else None
    gt = _json(gt) if gt is not None else {}
    gt = gt if isinstance(gt, Mapping) else {}

    def pick(key: str, default: Any = None) -> Any:
        value = extra.get(key)
        return value if value is not None else gt.get(key, default)

    servers = pick("servers")
    if not servers:
        raise ValueError("the row names no servers: extra_info.servers (or the ground truth's `servers`) is needed")
    tools = _json(pick("tools", []))
    followups = extra.get("followups")
    if followups is None:                 # `prove synth`'s Parquet names them `user_turns`
        followups = extra.get("user_turns")
    if followups is None:
        followups = [t.get("user", "") for t in (gt.get("turns") or [])[1:]]
    prompt = [dict(m) for m in plain(kwargs["raw_prompt"])]
    # Simulated time before each user turn (turns[i].advance), as the replay and the reward apply it.
    advance = tuple(int(t.get("advance") or 0) for t in (gt.get("turns") or []) if isinstance(t, Mapping))
    return Script(str(pick("example_id", pick("id", ""))), list(servers), int(pick("world", 0)), list(tools),
                  prompt, [{"role": "user", "content": str(t)} for t in followups], str(pick("kind", "multi_turn")),
                  advance)


class ProveAgentLoop(AgentLoopBase):
    """Live PROVE episodes inside VERL's agent loop machinery (see the module docstring).

    Args:
        env_url: a `prove serve` URL (comma-separated for several workers); None: in-process.
        env_token: that server's bearer token.
        env_ray: run the episodes on a pool of Ray environment actors shared by the cluster's
            workers (`RayEnvPool`'s options: actors, name, num_cpus, ...), so that the tools' work
            runs in the actors' processes, not beside this worker's event loop; None: not on Ray.
        call_timeout: seconds a tool call's SQL may run in-process.
        max_calls: tool calls per episode; later ones are answered `call_limit`, and end it.
        max_sessions, idle_ttl: the worker's in-process session pool.
        record_diff: also hand the episode's row-level state diff to the reward (for the state
            component without a replay).
        tools: VERL's tools from `multi_turn.tool_config_path`; not used, since each example
            carries the tools it shows (distractors and stripped enums included).
    """

    def __init__(self, *args: Any, tools: Any = None, env_url: str | None = None, env_token: str | None = None,
                 env_ray: Mapping[str, Any] | None = None, call_timeout: float | None = 10.0,
                 max_calls: int | None = 50, max_sessions: int = 4096, idle_ttl: float = 600.0,
                 record_diff: bool = False, **kwargs: Any) -> None:
        kwargs.pop("name", None)          # the registry entry's own name, passed along by hydra
        super().__init__(*args, **kwargs)
        multi = self.rollout_config.multi_turn
        self.max_user_turns = multi.max_user_turns
        self.max_assistant_turns = multi.max_assistant_turns
        self.max_parallel_calls = multi.max_parallel_calls
        self.max_tool_response_length = multi.max_tool_response_length
        self.format = multi.format
        self.tool_parser = None if self.format == "hermes" else ToolParser.get_tool_parser(self.format, self.tokenizer)
        self.response_length = self.rollout_config.response_length
        self.env = EnvConfig(url=env_url, token=env_token, call_timeout=call_timeout, max_sessions=max_sessions,
                             idle_ttl=idle_ttl, ray=plain(env_ray))
        self.max_calls = max_calls
        self.record_diff = record_diff

    def _limits(self) -> Limits:
        return Limits(max_user_turns=self.max_user_turns or None, max_assistant_turns=self.max_assistant_turns or None,
                      max_calls=self.max_calls, max_calls_per_turn=self.max_parallel_calls or None,
                      max_tool_chars=self.max_tool_response_length or None, turns="verl")

    async def _reply(self, token_ids: list[int], tools: list[dict[str, Any]]) -> dict[str, Any]:
        """The generated tokens as an assistant message (calls still as text for Hermes)."""
        if self.tool_parser is None:
            text = await self.loop.run_in_executor(
                None, lambda: self.tokenizer.decode(token_ids, skip_special_tokens=True))
            return {"role": "assistant", "content": text}
        schemas = [OpenAIFunctionToolSchema.model_validate(flatten_tool(t)) for t in tools]
        content, calls = await self.tool_parser.extract_tool_calls(token_ids, schemas)
        reply: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            reply["tool_calls"] = [{"id": c.tool_call_id or f"call_{k}", "type": "function",
                                    "function": {"name": c.name, "arguments": c.arguments}}
                                   for k, c in enumerate(calls)]
        return reply

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        script = episode_script(kwargs)
        loop = asyncio.get_running_loop()
        opened = await loop.run_in_executor(None, self.env.open, script.servers, script.world)
        try:
            return await self._play(script, opened.env, sampling_params, kwargs)
        finally:
            # Shielded: a cancelled rollout still closes its episode (the close runs to its end).
            close = loop.run_in_executor(None, self.env.close, opened)
            try:
                await asyncio.shield(close)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a failed close must not hide the rollout's result
                log.exception("closing the episode of %s failed", script.example_id)

    async def _play(self, script: Script, env: Any, sampling_params: dict[str, Any],
                    kwargs: Mapping[str, Any]) -> AgentLoopOutput:
        loop = asyncio.get_running_loop()
        episode = Episode(script, env, self._limits())
        metrics: dict[str, Any] = {}
        extra_fields: dict[str, Any] = {}
        request_id = uuid4().hex
        prompt_ids = await self.ct_build_initial_tokens(episode.messages, tools=script.tools)
        response_mask: list[int] = []
        logprobs: list[float] = []
        while not episode.done:
            with simple_timer("generate_sequences", metrics):
                output = await self.server_manager.generate(request_id=request_id, prompt_ids=prompt_ids,
                                                            sampling_params=sampling_params)
            if output.num_preempted is not None:
                metrics["num_preempted"] = metrics.get("num_preempted", 0) + output.num_preempted
            if not extra_fields:
                extra_fields.update(output.extra_fields)
            elif output.extra_fields.get("max_global_steps"):
                extra_fields["max_global_steps"] = output.extra_fields["max_global_steps"]
            merged, response_mask, new_logprobs = await self.ct_merge_assistant_token(
                prompt_ids, output.token_ids, response_mask, logprobs if (logprobs or output.log_probs) else None,
                assistant_logprobs=output.log_probs or None)
            prompt_ids = merged.token_ids
            if new_logprobs is not None:
                logprobs = new_logprobs
            reply = await self._reply(output.token_ids, script.tools)
            seen = len(episode.messages) + 1             # the prompt so far: with the reply `step` records
            try:
                with simple_timer("tool_calls", metrics):
                    step = await loop.run_in_executor(None, episode.step, reply)
            except EpisodeError:
                break
            if len(response_mask) >= self.response_length:
                if not episode.done:
                    episode.stop("response_length")
                break
            if not step.messages:
                break
            merged, response_mask, new_logprobs = await self.ct_merge_context_msg(
                episode.messages[:seen], episode.messages, prompt_ids, response_mask, logprobs or None,
                tools=script.tools)
            if len(response_mask) >= self.response_length:
                if not episode.done:
                    episode.stop("response_length")
                break
            prompt_ids = merged.token_ids
            if logprobs:
                logprobs = new_logprobs or []
        extra_fields["prove"] = await loop.run_in_executor(None, self._record, episode, env)
        response_ids = prompt_ids[-len(response_mask):] if response_mask else []
        prompt_only = prompt_ids[: len(prompt_ids) - len(response_mask)]
        metrics.setdefault("num_preempted", -1)
        return AgentLoopOutput(
            prompt_ids=prompt_only,
            response_ids=response_ids[: self.response_length],
            response_mask=response_mask[: self.response_length],
            response_logprobs=logprobs[: self.response_length] if logprobs else None,
            multi_modal_data={},
            num_turns=episode.env_turns + episode.assistant_turns + 1,
            metrics=metrics,
            extra_fields=extra_fields,
        )

    def _record(self, episode: Episode, env: Any) -> dict[str, Any]:
        """What the reward needs of the episode (plain JSON, as Ray ships it to the reward workers)."""
        summary = episode.summary()
        record: dict[str, Any] = {
            "example_id": episode.script.example_id,
            "messages": episode.messages[len(episode.script.prompt):],
            "status": summary["status"], "error": summary["error"], "calls": summary["calls"],
            "fingerprint": None, "diff": None,
        }
        if episode.status != "env_error":
            try:
                record["fingerprint"] = env.fingerprint()
                if self.record_diff:
                    record["diff"] = env.diff().to_list()
            except ProveError as exc:
                record["status"], record["error"] = "env_error", f"{type(exc).__name__}: {exc}"
        return record


# VERL's worker loads `agent_loop.yaml` into its registry when it starts, and hydra imports this
# module at the first rollout: registering the bare class then would replace the loaded entry,
# and every later rollout of the worker would lose its options (env_url, env_ray, record_diff,
# max_calls). So the class registers itself only where no config named it first.
if AGENT_NAME not in verl_agent_loop._agent_loop_registry:
    register(AGENT_NAME)(ProveAgentLoop)

