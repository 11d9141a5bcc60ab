"""Rollouts: a policy behind an OpenAI-compatible endpoint, played against live episodes.

    from prove.reward import COMPONENTS, Scorer
    from prove.rollout import Limits, OpenAIPolicy, evaluate, local_env, summarize
    policy = OpenAIPolicy("http://127.0.0.1:8000/v1", "Qwen/Qwen3-4B")
    scorer = Scorer(examples)
    trajectories = evaluate(examples, policy, env=local_env(call_timeout=10), limits=Limits(),
                            score=scorer.breakdown, state=scorer.state)
    report = summarize(trajectories, examples, components=COMPONENTS, best=scorer.config.best())

An episode opens a fresh environment on the example's world (in-process `Session`, or any
factory returning something with its interface, such as `prove.mcp.RemoteEnv`), starts from the
example's first user message, runs every tool call the policy makes (native `tool_calls` or
Hermes `<tool_call>` text), brings in the example's scripted follow-up user turns, stops at the
caps, and is scored by the scoring callable it is given (the reward; this package does not import
it). Nothing here imports a deep-learning framework.
"""

from .calls import PendingCall, hermes_calls, normalize, render_hermes
from .episode import (
    CALL_LIMIT,
    Env,
    Episode,
    EpisodeError,
    Limits,
    Script,
    Step,
    script,
)
from .policy import OpenAIPolicy, Policy, PolicyError, Reply, Sampling
from .report import summarize
from .runner import EnvFactory, ScoreFn, close_episode, evaluate, local_env, run_episode

_SCRIPTED = ("ScriptedModel", "ScriptedServer", "oracle")


def __getattr__(name: str):  # noqa: ANN202 - module attribute hook
    # Loaded on first use, so that `python -m prove.rollout.scripted` runs a module not yet imported.
    if name in _SCRIPTED:
        from . import scripted

        return getattr(scripted, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CALL_LIMIT", "Env", "EnvFactory", "Episode", "EpisodeError", "Limits", "OpenAIPolicy", "PendingCall", "Policy",
    "PolicyError", "Reply", "Sampling", "ScoreFn", "Script", "close_episode", "ScriptedModel", "ScriptedServer", "Step", "evaluate",
    "hermes_calls", "local_env", "normalize", "oracle", "render_hermes", "run_episode", "script", "summarize",
]
