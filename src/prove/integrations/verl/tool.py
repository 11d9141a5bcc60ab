"""`ProveTool`: a VERL `BaseTool` for users of VERL's stock `tool_agent` loop.

VERL 0.9 calls `create`, `execute` and `release` once per tool *call*, not per episode, so a
tool instance cannot hold an episode. `ProveTool` keys the episode by the rollout instead:
`execute` receives VERL's `agent_data`, whose `request_id` is unique to the rollout, and the
first call of a rollout opens a session on the example's world under that key; later calls of
the same rollout find it. Nothing tells a tool when a rollout ends, so the session is left to
the pool's idle TTL (in-process and on Ray: `idle_ttl`, default 600 s; remote: `prove serve --idle-ttl`),
which reaps it. Size `max_sessions` for the rollouts in flight within one TTL.

The example's servers and world come from the row's `extra_info.tools_kwargs.prove`
(`{"servers": [...], "world": 7}`, which `prove export verl` writes); VERL hands the row's
`tools_kwargs` to the loop as `agent_data.tools_kwargs`. A tool's `config.servers` is the
fallback.

Tool config entry (what `prove export verl` writes, one per tool):

```yaml
tools:
  - class_name: prove.integrations.verl.tool.ProveTool
    config: {type: native, servers: [banking], env_url: null, env_ray: null, call_timeout: 10.0, idle_ttl: 600.0}
    tool_schema: {type: function, function: {name: get_account, description: ..., parameters: ...}}
```

Prefer the `prove_agent` loop for training: it closes each episode when the rollout ends,
shows each example its own tools (distractors, stripped enums), injects the scripted follow-up
user turns and hands the reward every call's outcome. The stock loop shows every example the
tool config's tools (narrowed by `extra_info.tool_selection`), stops at the first answer in
words and drops calls its parser cannot read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import Any
from uuid import uuid4

from prove.integrations import require

require("verl", "verl", "prove.integrations.verl.tool")

from verl.tools.base_tool import BaseTool  # noqa: E402
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse  # noqa: E402

from prove.env import ProveError  # noqa: E402
from prove.records import plain  # noqa: E402

from .envs import EnvConfig  # noqa: E402

__all__ = ["ProveTool"]

log = logging.getLogger("prove.integrations.verl")


def _episode(agent_data: Any, create_kwargs: Mapping[str, Any] | None) -> Mapping[str, Any]:
    kwargs = getattr(agent_data, "tools_kwargs", None)
    if isinstance(kwargs, Mapping) and isinstance(kwargs.get("prove"), Mapping):
        return kwargs["prove"]
    return create_kwargs or {}


class ProveTool(BaseTool):
    """One tool of a PROVE server, run on the episode of the calling rollout (see the module docstring)."""

    def __init__(self, config: dict[str, Any], tool_schema: OpenAIFunctionToolSchema) -> None:
        super().__init__(config, tool_schema)
        self.env = EnvConfig(url=config.get("env_url"), token=config.get("env_token"),
                             call_timeout=config.get("call_timeout", 10.0),
                             max_sessions=int(config.get("max_sessions", 4096)),
                             idle_ttl=float(config.get("idle_ttl", 600.0)), ray=plain(config.get("env_ray")))
        self.servers = list(config.get("servers") or [])
        self._created: dict[str, dict[str, Any]] = {}

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        iid = instance_id or uuid4().hex
        self._created[iid] = dict(kwargs.get("create_kwargs") or {})
        return iid, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[ToolResponse, float, dict]:
        agent_data = kwargs.get("agent_data")
        episode = _episode(agent_data, self._created.get(instance_id))
        key = str(getattr(agent_data, "request_id", None) or instance_id)
        servers = list(episode.get("servers") or self.servers)
        world = int(episode.get("world") or 0)
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(None, self.env.call_keyed, key, servers, world, self.name,
                                                parameters)
        except ProveError as exc:
            # The infrastructure's failure, shown to the model as a failed call (and logged).
            log.warning("tool %s of rollout %s failed: %s", self.name, key, exc)
            code = getattr(exc, "code", None) or type(exc).__name__
            body = {"error": {"code": code, "message": str(exc)}}
            return ToolResponse(text=json.dumps(body)), 0.0, {"ok": False, "code": code}
        return ToolResponse(text=result.text()), 0.0, {"ok": result.ok, "code": result.code}

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self._created.pop(instance_id, None)
