"""`ProveEnv`: a Gymnasium-style environment over examples, one live episode per `reset`.

    env = prove.gym.make("out/dataset")
    obs, info = env.reset(seed=0)                 # obs: the conversation so far (chat messages)
    obs, reward, terminated, truncated, info = env.step({"role": "assistant", "tool_calls": [...]})

An action is one assistant reply: a message (`content`, native `tool_calls`), or its text alone
(which may hold Hermes `<tool_call>` blocks). The episode runs the reply's calls and answers with
their results, or brings in the example's next user turn when the reply has no calls, exactly as
`prove eval` does: the episode core is `prove.rollout.Episode`, ended by
`prove.rollout.close_episode` and scored by `prove.reward.Scorer`. The reward is 0 until the
episode ends, then its score (`info["reward"]` holds the breakdown, `info["trajectory"]` the
scored trajectory). It ends `terminated` when the conversation is over (the model answered the
last user turn in words) and `truncated` at a cap (`prove.rollout.Limits`) or when the
environment broke.

Nothing here imports Gymnasium or a deep-learning framework; `prove.gym.gymnasium_env` gives
the same environment as a `gymnasium.Env`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from ..records import Example
from ..reward import RewardConfig, Scorer
from ..rollout import EnvFactory, Episode, EpisodeError, Limits, close_episode, local_env, script

__all__ = ["ProveEnv", "assistant_message"]

TERMINATED = frozenset({"done"})


def assistant_message(action: Any) -> dict[str, Any]:
    """An action as an assistant message: text becomes its content; a message is taken as it is."""
    if isinstance(action, str):
        return {"role": "assistant", "content": action}
    if isinstance(action, Mapping):
        if action.get("role", "assistant") != "assistant":
            raise ValueError(f"an action is an assistant message, not a {action.get('role')!r} one")
        return {**action, "role": "assistant"}
    raise TypeError(f"an action is an assistant message (a dict) or its text, not {type(action).__name__}")


class ProveEnv:
    """Episodes of `examples`, one at a time (see the module docstring).

    Args:
        examples: the examples an episode is drawn from.
        config: the reward settings (default: the `prove` preset).
        limits: the episode's caps.
        env: opens an episode's environment (`factory(servers, world)`): in-process sessions by
            default, or `prove.mcp.RemoteEnv` on a `prove serve`.
        call_timeout: seconds a call's SQL may run in the default in-process sessions.
    """

    metadata: dict[str, Any] = {"render_modes": []}
    render_mode = None

    def __init__(self, examples: Iterable[Example], *, config: RewardConfig | None = None,
                 limits: Limits | None = None, env: EnvFactory | None = None,
                 call_timeout: float | None = 10.0) -> None:
        self.examples = list(examples)
        if not self.examples:
            raise ValueError("an environment needs at least one example")
        self.by_id = {ex.id: ex for ex in self.examples}
        self.scorer = Scorer(self.examples, config)
        self.limits = limits or Limits()
        self.factory = env or local_env(call_timeout)
        self.np_random = random.Random()
        self.episode: Episode | None = None
        self.trajectory: dict[str, Any] | None = None
        self._handle: Any = None

    # ----- the Gymnasium API ---------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
              ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Open a fresh episode: the example `options["example_id"]` (or `options["index"]`), else
        one drawn at random (`seed` seeds the draw). Closes the previous episode unscored."""
        if seed is not None:
            self.np_random.seed(seed)
        self._drop()
        example = self._pick(options or {})
        sc = script(example)
        self._handle = self.factory(sc.servers, sc.world)
        self.episode = Episode(sc, self._handle, self.limits)
        self.trajectory = None
        info = {"example_id": example.id, "servers": list(example.servers), "world": example.world,
                "kind": example.kind, "tools": sc.tools, "turn": 0}
        if self.episode.done:             # the environment broke moving its clock at the start
            info.update(self._finish())
        return self.observation(), info

    def step(self, action: Any) -> tuple[list[dict[str, Any]], float, bool, bool, dict[str, Any]]:
        """Play one assistant reply; the reward is the episode's score once it ends, else 0."""
        episode = self.episode
        if episode is None or self._handle is None:
            raise RuntimeError("call reset() first: the episode has ended" if episode else "call reset() first")
        info: dict[str, Any]
        try:
            step = episode.step(assistant_message(action))
            info = {"example_id": episode.script.example_id, "step": step.kind, "new": step.messages,
                    "turn": episode.turn}
        except EpisodeError as exc:
            info = {"example_id": episode.script.example_id, "step": "end", "new": [], "turn": episode.turn,
                    "error": str(exc)}
        if not episode.done:
            return self.observation(), 0.0, False, False, info
        info.update(self._finish())
        reward = float(info["reward"]["score"])
        terminated = episode.status in TERMINATED
        return self.observation(), reward, terminated, not terminated, info

    def close(self) -> None:
        """Close the episode in progress, if any (unscored)."""
        self._drop()

    def render(self) -> None:
        return None

    @property
    def unwrapped(self) -> ProveEnv:
        return self

    def __enter__(self) -> ProveEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- the episode -----------------------------------------------------------------------------

    @property
    def handle(self) -> Any:
        """The environment of the episode in progress (None between episodes)."""
        return self._handle

    def observation(self) -> list[dict[str, Any]]:
        """The conversation so far, in chat form (a copy: the caller may keep or change it)."""
        return [dict(m) for m in self.episode.messages] if self.episode is not None else []

    def _pick(self, options: Mapping[str, Any]) -> Example:
        if options.get("example_id") is not None:
            found = self.by_id.get(str(options["example_id"]))
            if found is None:
                raise KeyError(f"no example {options['example_id']!r} in this environment")
            return found
        if options.get("index") is not None:
            return self.examples[int(options["index"]) % len(self.examples)]
        return self.np_random.choice(self.examples)

    def _finish(self) -> dict[str, Any]:
        """Close the ended episode and score it: what `info` says at the end."""
        assert self.episode is not None
        handle, self._handle = self._handle, None
        self.trajectory = close_episode(self.episode, handle, score=self.scorer.breakdown, state=self.scorer.state)
        return {"status": self.episode.status, "reward": self.trajectory["reward"], "trajectory": self.trajectory}

    def _drop(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()

    def __del__(self) -> None:
        try:
            self._drop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
