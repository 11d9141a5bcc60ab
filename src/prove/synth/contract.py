"""The conversation contract: what the state machine and every teacher share.

- `ConversationSpec`: everything decided about one example before the teacher starts, frozen.
- `Decisions`: what the teacher settles while planning (the kind an example turns out to be,
  its information level, the chain it really walked, tools it hides), declared fields rather than
  a rewrite of the spec.
- `Conversation`: the live session and the transcript of one conversation.
- `Move` / `Call`: what a teacher proposes; `Teacher`: the protocol the machine drives.
"""

from __future__ import annotations

import enum
import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..env import Server, Session, Tool, ToolResult
from .entities import EntityIndex, extract_entities
from .graph import DependencyGraph
from .sampler import SamplingContext

if TYPE_CHECKING:
    from .graph import PairClassifier

__all__ = ["Call", "Conversation", "ConversationSpec", "Decisions", "Executed", "Move", "Outcome", "Rejected",
           "Target", "Teacher", "as_args", "entity_values", "token"]


class Outcome(str, enum.Enum):
    SUCCESS = "success"
    PARTIAL = "partial"
    FAILURE = "failure"
    NONE = "none"  # a turn without calls: a question, an answer from memory, a refusal


class Rejected(Exception):
    """The conversation cannot become an example; `reason` is a short stable code."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass
class Call:
    """A tool call the assistant proposes. `mistake` marks a deliberate error the teacher shows."""

    name: Any
    arguments: Any
    mistake: str | None = None
    binds: dict[str, Any] = field(default_factory=dict)  # the values the request's phrasing fixed


@dataclass
class Move:
    """The assistant's move: calls (with optional text before them), or a final text."""

    text: str | None = None
    calls: list[Call] = field(default_factory=list)


@dataclass(frozen=True)
class Target:
    """What an example is asked to be about, instead of what its index draws (online curricula).

    Attributes:
        server: the server of the episode.
        tool: the tool the chain starts from (the one hidden, for an abstention); None: drawn.
        length: the chain's length; None: drawn between the config's bounds.
        kind: `multi_turn`, `clarification`, `abstention` or `irrelevance`; None: drawn by the rates.
    """

    server: str
    tool: str | None = None
    length: int | None = None
    kind: str | None = None


@dataclass(frozen=True)
class ConversationSpec:
    """Everything decided about one example before the teacher starts (derived from seed and index)."""

    id: str
    index: int
    seed: int
    server: Server
    world: int
    context: SamplingContext
    graph: DependencyGraph
    kind: str = "multi_turn"
    level: str = "complete"
    chain: tuple[str, ...] = ()
    turns: int = 2
    tools: tuple[dict[str, Any], ...] = ()
    perturbations: tuple[str, ...] = ()
    hidden: frozenset[str] = frozenset()
    abstain_tool: str | None = None
    hide_lookup: bool = False
    ungrounded: bool = False
    recovery: float = 0.12
    infeasible: float = 0.03
    max_turns: int = 3
    max_steps: int = 10
    max_regenerations: int = 3
    teacher: str = "programmatic"

    def rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{self.index}:{purpose}")


@dataclass
class Decisions:
    """What the teacher settles about the example while it plans; the record is built from these."""

    kind: str
    level: str
    chain: list[str]
    perturbations: list[str]
    hidden: set[str]
    strategies: list[str] = field(default_factory=list)
    persona: str | None = None
    # Per gold call ID, the argument values the request's phrasing bound (checked by validation).
    bindings: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Who worded each rewritten text, in order ("user:rewritten", "reply:programmatic"): the reword teacher's.
    wording: list[str] = field(default_factory=list)
    # Seconds of simulated time that pass before each user turn (by turn index; absent: none).
    advance: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, spec: ConversationSpec) -> Decisions:
        return cls(spec.kind, spec.level, list(spec.chain), list(spec.perturbations), set(spec.hidden))


@dataclass
class Executed:
    id: str
    name: str
    arguments: Any
    result: ToolResult
    turn: int
    message: int
    mistake: str | None
    refs: list[tuple[str, str, bool]]  # (kind, value, exists at that point)


class Conversation:
    """The transcript and live state of one conversation, shared by the machine and the teacher."""

    def __init__(self, spec: ConversationSpec, session: Session, index: EntityIndex) -> None:
        self.spec = spec
        self.session = session
        self.index = index
        self.server = spec.server
        self.decided = Decisions.of(spec)
        self.tools: list[dict[str, Any]] = list(spec.tools)
        self.messages: list[dict[str, Any]] = []
        self.users: list[str] = []
        self.executed: list[Executed] = []
        self.created: dict[str, set[str]] = {}
        self.turn = -1
        self.regenerations = 0
        self.feedback: list[str] = []
        self.outcomes: list[str] = []
        self._next_call = 1
        self.shown = {t["function"]["name"] for t in spec.tools}

    # ----- views for teachers ----------------------------------------------------------------

    def tool(self, name: str) -> Tool | None:
        """A tool of the server that the model is shown."""
        if name not in self.shown:
            return None
        return self.server.tools.get(name)

    def turn_calls(self, turn: int | None = None) -> list[Executed]:
        t = self.turn if turn is None else turn
        return [e for e in self.executed if e.turn == t]

    def known_values(self) -> set[str]:
        """Entity IDs a grounded assistant may use: the context, user messages, tool outputs."""
        known = set(self.spec.context.known())
        for ids in self.created.values():
            known |= ids
        return known

    def mentioned(self, value: str) -> bool:
        """Whether a value was said in a user message or returned by a tool so far."""
        pattern = token(value)
        for m in self.messages:
            if m["role"] in ("user", "tool") and isinstance(m.get("content"), str) and pattern.search(m["content"]):
                return True
        return False

    def hide(self, names: Iterable[str]) -> None:
        """Take tools out of the model's view (before the first assistant move): a hidden-tool perturbation."""
        names = set(names)
        self.tools = [t for t in self.tools if t["function"]["name"] not in names]
        self.decided.hidden |= names
        self.shown -= names
        if "hidden_tool" not in self.decided.perturbations:
            self.decided.perturbations.append("hidden_tool")

    # ----- transcript ------------------------------------------------------------------------

    def add_system(self, text: str) -> None:
        self.messages.append({"role": "system", "content": text})

    def add_user(self, text: str, advance: int = 0) -> None:
        """A user turn; `advance` seconds of simulated time pass first (the clock moves on)."""
        self.turn += 1
        if advance:
            self.session.advance(advance)
            self.decided.advance[self.turn] = advance
        self.users.append(text)
        self.messages.append({"role": "user", "content": text})

    def add_text(self, text: str) -> None:
        self.messages.append({"role": "assistant", "content": text})

    def execute(self, move: Move) -> list[Executed]:
        """Run a move's calls in order on the live session and append them to the transcript."""
        tool_calls = []
        ids = []
        for call in move.calls:
            cid = f"c{self._next_call}"
            self._next_call += 1
            ids.append(cid)
            args = call.arguments
            text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
            tool_calls.append({"id": cid, "type": "function", "function": {"name": str(call.name), "arguments": text}})
        msg: dict[str, Any] = {"role": "assistant", "content": move.text, "tool_calls": tool_calls}
        self.messages.append(msg)
        at = len(self.messages) - 1
        out = []
        for cid, call in zip(ids, move.calls):
            args = as_args(call.arguments)
            refs = self._refs(call.name, args)
            result = self.session.call(call.name, args if args is not None else call.arguments)
            if result.ok:
                tool = self.server.tools.get(call.name)
                if tool is not None:
                    for kind, value, _ in extract_entities(tool, result.data):
                        self.created.setdefault(kind, set()).add(value)
            self.messages.append({"role": "tool", "tool_call_id": cid, "name": str(call.name), "content": result.text()})
            if call.binds:
                self.decided.bindings[cid] = dict(call.binds)
            ex = Executed(cid, str(call.name), args if args is not None else call.arguments, result, self.turn, at,
                          call.mistake, refs)
            self.executed.append(ex)
            out.append(ex)
        return out

    def _refs(self, name: Any, args: dict[str, Any] | None) -> list[tuple[str, str, bool]]:
        tool = self.server.tools.get(name) if isinstance(name, str) else None
        if tool is None or not isinstance(args, dict):
            return []
        refs = []
        for p in tool.params:
            if p.entity and p.name in args:
                for v in entity_values(args[p.name]):
                    refs.append((p.entity, v, self.index.exists(p.entity, v, self.created)))
        return refs


def as_args(arguments: Any) -> dict[str, Any] | None:
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, (str, bytes)):
        try:
            parsed = json.loads(arguments)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


def entity_values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


TOKEN_CACHE: dict[str, re.Pattern[str]] = {}


def token(value: str) -> re.Pattern[str]:
    found = TOKEN_CACHE.get(value)
    if found is None:
        if len(TOKEN_CACHE) > 50_000:
            TOKEN_CACHE.clear()
        found = TOKEN_CACHE[value] = re.compile(r"(?<![0-9A-Za-z])" + re.escape(value) + r"(?![0-9A-Za-z])")
    return found


class Teacher(Protocol):
    """What the state machine asks of a teacher, one conversation at a time.

    A teacher keeps whatever it needs per conversation itself (keyed by the `Conversation`); what
    it settles about the example goes into `conv.decided`.
    """

    id: str

    async def query(self, conv: Conversation) -> str | None:
        """The next user message, or None to end the conversation."""

    async def assistant(self, conv: Conversation, feedback: str | None = None) -> Move:
        """The assistant's next move: tool calls, or text that answers the turn.

        `feedback` says why the previous answer to the same question was rejected by the
        format validator (a regeneration).
        """

    async def continuation(self, conv: Conversation) -> str:
        """After a turn: 'end', 'follow_up' or 'clarification'."""

    def advance(self, conv: Conversation) -> int:
        """Seconds of simulated time that pass before the next user turn (0: none)."""

    def classifier(self) -> PairClassifier | None:
        """A pair classifier for the dependency graph, or None for the schema classifier."""

    async def aclose(self) -> None: ...
