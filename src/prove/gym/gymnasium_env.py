"""`prove.gym`'s environment as a `gymnasium.Env` (Gymnasium installed: `pip install 'prove-rl[gym]'`).

Gymnasium's spaces describe arrays; an observation here is a conversation and an action an
assistant reply, so the two spaces are Gymnasium `Space`s that check those shapes
(`contains`) and cannot be sampled (there is no meaningful random reply).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium

from . import make

__all__ = ["AssistantReply", "Conversation", "GymnasiumEnv"]

ROLES = frozenset({"system", "user", "assistant", "tool"})


class Conversation(gymnasium.spaces.Space):
    """Chat messages: a list of dicts, each with a known `role`."""

    def __init__(self) -> None:
        super().__init__(shape=None, dtype=None)

    def contains(self, x: Any) -> bool:
        return isinstance(x, list) and all(isinstance(m, Mapping) and m.get("role") in ROLES for m in x)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        raise NotImplementedError("a conversation cannot be sampled")

    @property
    def is_np_flattenable(self) -> bool:
        return False


class AssistantReply(gymnasium.spaces.Space):
    """One assistant reply: its text, or a message (`content`, `tool_calls`)."""

    def __init__(self) -> None:
        super().__init__(shape=None, dtype=None)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) or (isinstance(x, Mapping) and x.get("role", "assistant") == "assistant")

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        raise NotImplementedError("a reply cannot be sampled: it comes from a policy")

    @property
    def is_np_flattenable(self) -> bool:
        return False


class GymnasiumEnv(gymnasium.Env):
    """A `prove.gym` environment (`target`: what `prove.gym.make` takes) under Gymnasium's API."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, target: Any, render_mode: str | None = None, **kwargs: Any) -> None:
        self.env = make(target, **kwargs)
        self.render_mode = render_mode
        self.observation_space = Conversation()
        self.action_space = AssistantReply()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        super().reset(seed=seed)
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[list[dict[str, Any]], float, bool, bool, dict[str, Any]]:
        return self.env.step(action)

    def close(self) -> None:
        self.env.close()
