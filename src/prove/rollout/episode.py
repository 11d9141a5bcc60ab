"""One live episode: an example's script, an environment, caps, and the record of what happened.

`Episode` is driven by whoever produces the assistant replies (the OpenAI-compatible runner
here, VERL's agent loop in `prove.integrations.verl`): it is fed one reply at a time, runs the
reply's tool calls on the environment, brings in the example's next scripted user turn when
the assistant answers without calls, and ends the episode at the caps. The environment is a
`prove.env.Session` or anything with its interface (`prove.mcp.RemoteEnv`).

Caps (`Limits`), with the paper's values as defaults:

- `max_user_turns` (5): user messages in the episode, the first included. A scripted follow-up
  that would pass it is not sent; the episode ends. With `turns="verl"` it counts what VERL's
  `multi_turn.max_user_turns` counts instead: every turn the environment takes (each round of
  tool results and each follow-up), the first user message not included; the reply generated
  once it is reached is the last (its calls still run).
- `max_assistant_turns` (10): assistant replies. The calls of the last allowed reply still run
  (they are the model's actions: their outcomes and state count), then the episode ends.
- `max_calls` (50): tool calls made per episode (run or not); `max_calls_per_turn` (None):
  calls run from one reply. A call past a cap is not run: it is answered with the error
  `call_limit` (so it fails validity and counts for efficiency, as the model did make it), and
  a call past `max_calls` ends the episode.

The simulated time of the example's turns (`turns[i].advance`) passes as in the replay of the
gold calls: turn 0's when the episode opens, each later turn's before its user message is sent.

A call to a tool the example does not offer is answered `unknown_tool` without reaching the
environment (a session would run a server's hidden helpers, or the tool an abstention example
withholds).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..env import UNKNOWN_TOOL, Diff, ProveError, ToolResult
from ..records import Example
from .calls import PendingCall, normalize

__all__ = ["CALL_LIMIT", "Env", "Episode", "EpisodeError", "Limits", "Script", "Step", "script"]

CALL_LIMIT = "call_limit"
# Transport errors of a remote environment that are the call's outcome, not the episode's end.
_CALL_OUTCOME_CODES = frozenset({"timeout", "episode_busy"})


class EpisodeError(ProveError):
    """The environment broke mid-episode (not the model's doing): the episode cannot go on."""


class Env(Protocol):
    """What an episode needs of its environment (`Session`, `RemoteEnv`)."""

    def call(self, name: str, arguments: Any = None) -> ToolResult: ...

    def advance(self, delta: float) -> Any: ...

    def fingerprint(self) -> str: ...

    def diff(self) -> Diff: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Limits:
    """Caps on one episode (see the module's docstring); None: no cap."""

    max_user_turns: int | None = 5
    max_assistant_turns: int | None = 10
    max_calls: int | None = 50
    max_calls_per_turn: int | None = None
    max_tool_chars: int | None = None
    turns: str = "messages"


@dataclass(frozen=True)
class Script:
    """What an episode replays of an example: where it starts and what the user says next."""

    example_id: str
    servers: list[str]
    world: int
    tools: list[dict[str, Any]]
    prompt: list[dict[str, Any]]
    followups: list[dict[str, Any]]
    kind: str = "multi_turn"
    advance: tuple[int, ...] = ()  # seconds of simulated time before each user turn (the example's `turns`)


def script(example: Example | Mapping[str, Any]) -> Script:
    """The script of an example: the messages up to its first user message, then its later user turns.

    Follow-ups are the user messages of the reference conversation after the first when there
    is one per ground-truth turn, else the turns' `user` texts.
    """
    ex = example if isinstance(example, Example) else Example.model_validate(example)
    messages = [m.model_dump(mode="json", exclude_none=True) for m in ex.messages]
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    if users:
        prompt = [m for m in messages[:users[0] + 1] if m["role"] in ("system", "user")]
    elif ex.turns:
        prompt = [{"role": "user", "content": ex.turns[0].user}]
    else:
        raise ValueError(f"example {ex.id!r} has no user message to start from")
    if len(users) == len(ex.turns) and users:
        followups = [{"role": "user", "content": messages[i]["content"]} for i in users[1:]]
    else:
        followups = [{"role": "user", "content": t.user} for t in ex.turns[1:]]
    tools = [t.model_dump(mode="json", exclude_none=True) for t in ex.tools]
    return Script(ex.id, list(ex.servers), ex.world, tools, prompt, followups, ex.kind,
                  tuple(int(t.advance or 0) for t in ex.turns))


@dataclass(slots=True)
class Step:
    """What an episode did with a reply: `tools` (results to send), `user` (the next turn) or `end`."""

    kind: str
    messages: list[dict[str, Any]]
    reason: str | None = None


@dataclass(slots=True)
class CallOutcome:
    """One call of the episode: what was asked and how it ended."""

    id: str
    name: str
    turn: int
    ok: bool
    code: str | None
    seconds: float
    executed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "turn": self.turn, "ok": self.ok, "code": self.code,
                "seconds": round(self.seconds, 6), "executed": self.executed}


def _error_text(code: str, message: str, hint: str | None = None) -> str:
    err: dict[str, Any] = {"code": code, "message": message}
    if hint:
        err["hint"] = hint
    return json.dumps({"error": err}, ensure_ascii=False)


class Episode:
    """One episode in progress.

    Args:
        script: the example's script (`script(example)`).
        env: the episode's environment, already open on the example's servers and world.
        limits: the caps.
    """

    def __init__(self, script: Script, env: Env, limits: Limits | None = None) -> None:
        self.script = script
        self.env = env
        self.limits = limits or Limits()
        self.messages: list[dict[str, Any]] = [dict(m) for m in script.prompt]
        self.user_turns = 1
        self.env_turns = 0          # tool rounds + follow-ups: VERL's "user turns"
        self.assistant_turns = 0
        self.calls: list[CallOutcome] = []
        self.forms: dict[str, int] = {}
        self.status = "running"
        self.error: str | None = None
        self._next_followup = 0
        names = {t.get("function", {}).get("name") for t in script.tools if isinstance(t, Mapping)}
        self._offered: frozenset[str] | None = frozenset(n for n in names if isinstance(n, str)) or None
        try:
            self._advance(0)
        except EpisodeError:
            pass  # the episode has ended (`env_error`); the driver sees it done

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def turn(self) -> int:
        """The index of the current user turn (0 for the first)."""
        return self.user_turns - 1

    def step(self, reply: Mapping[str, Any]) -> Step:
        """Record one assistant reply and act on it."""
        if self.done:
            raise RuntimeError(f"episode of {self.script.example_id} has ended ({self.status})")
        message, pending, form = normalize(dict(reply), id_prefix=f"call_{self.assistant_turns}")
        self.messages.append(message)
        self.assistant_turns += 1
        self.forms[form] = self.forms.get(form, 0) + 1
        lim = self.limits
        verl = lim.turns == "verl"
        last = None
        if lim.max_assistant_turns is not None and self.assistant_turns >= lim.max_assistant_turns:
            last = "assistant_turn_cap"
        elif verl and lim.max_user_turns is not None and self.env_turns >= lim.max_user_turns:
            last = "user_turn_cap"
        if pending:
            results, over = self._run(pending)
            self.messages.extend(results)
            if over:
                return self._end("call_cap", results)
            if last:
                return self._end(last, results)
            self.env_turns += 1
            return Step("tools", results)
        if self._next_followup >= len(self.script.followups):
            return self._end("done", [])
        if not verl and lim.max_user_turns is not None and self.user_turns >= lim.max_user_turns:
            return self._end("user_turn_cap", [])
        if last:
            return self._end(last, [])
        user = dict(self.script.followups[self._next_followup])
        self._next_followup += 1
        self._advance(self.user_turns)
        self.user_turns += 1
        self.env_turns += 1
        self.messages.append(user)
        return Step("user", [user])

    def stop(self, reason: str) -> None:
        """End the episode for a reason of the driver's (the response's token budget is spent)."""
        self.status = reason

    def fail(self, status: str, error: str) -> None:
        """End the episode on an error of the policy or the infrastructure."""
        self.status = status
        self.error = error

    def _advance(self, turn: int) -> None:
        """Let the simulated time before user turn `turn` pass, as the replay of the gold calls does."""
        seconds = self.script.advance[turn] if turn < len(self.script.advance) else 0
        if not seconds:
            return
        try:
            self.env.advance(seconds)
        except (ProveError, ValueError) as exc:  # ValueError: past the simulated clock's end
            self.fail("env_error", f"{type(exc).__name__}: {exc}")
            raise EpisodeError(f"the environment failed moving its clock by {seconds} s: {exc}") from exc

    def _end(self, reason: str, messages: list[dict[str, Any]]) -> Step:
        self.status = reason
        return Step("end", messages, reason)

    def _run(self, pending: Sequence[PendingCall]) -> tuple[list[dict[str, Any]], bool]:
        out = []
        over = False
        per_turn = self.limits.max_calls_per_turn
        for k, call in enumerate(pending):
            if self.limits.max_calls is not None and len(self.calls) >= self.limits.max_calls:
                over = True
                text = _error_text(CALL_LIMIT, f"Not run: the episode's limit of {self.limits.max_calls} calls "
                                               "is reached.")
                outcome = CallOutcome(call.id, call.name, self.turn, False, CALL_LIMIT, 0.0, executed=False)
            elif per_turn is not None and k >= per_turn:
                text = _error_text(CALL_LIMIT, f"Not run: at most {per_turn} calls are run from one reply.",
                                   "Make fewer calls at once.")
                outcome = CallOutcome(call.id, call.name, self.turn, False, CALL_LIMIT, 0.0, executed=False)
            else:
                text, outcome = self._execute(call)
            self.calls.append(outcome)
            cut = self.limits.max_tool_chars
            if cut is not None and len(text) > cut:
                text = text[:cut] + "...(truncated)"
            out.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": text})
        return out, over

    def _execute(self, call: PendingCall) -> tuple[str, CallOutcome]:
        start = time.monotonic()
        if self._offered is not None and call.name not in self._offered:
            # Only what the example offers runs: not a tool it hides (an abstention's missing tool),
            # not a server's hidden helper, which `Session.call` would run.
            shown = ", ".join(sorted(self._offered)) or "none"
            text = _error_text(UNKNOWN_TOOL, f"No tool named {call.name[:80]!r} is available.",
                               f"Available tools: {shown}.")
            return text, CallOutcome(call.id, call.name, self.turn, False, UNKNOWN_TOOL, 0.0, executed=False)
        try:
            result = self.env.call(call.name, call.arguments)
        except ProveError as exc:
            code = getattr(exc, "code", None)
            if code not in _CALL_OUTCOME_CODES:
                self.fail("env_error", f"{type(exc).__name__}: {exc}")
                raise EpisodeError(f"the environment failed on {call.name!r}: {exc}") from exc
            text = _error_text(str(code), str(exc), getattr(exc, "hint", None))
            return text, CallOutcome(call.id, call.name, self.turn, False, str(code), time.monotonic() - start)
        return result.text(), CallOutcome(call.id, call.name, self.turn, result.ok, result.code,
                                          time.monotonic() - start)

    # ----- the record ------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Counters of the episode, for a trajectory's `meta`."""
        return {"status": self.status, "error": self.error, "user_turns": self.user_turns,
                "env_turns": self.env_turns, "assistant_turns": self.assistant_turns, "n_calls": len(self.calls),
                "failed_calls": sum(1 for c in self.calls if not c.ok), "forms": dict(self.forms),
                "calls": [c.to_dict() for c in self.calls]}

    def trajectory(self, **meta: Any) -> dict[str, Any]:
        """The episode as a trajectory record (`prove.records.Trajectory` shape)."""
        return {"example_id": self.script.example_id, "messages": self.messages, "meta": {**self.summary(), **meta}}
