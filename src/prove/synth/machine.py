"""Stage 3: the conversation state machine.

    QUERY -> ASSISTANT -> EXECUTE -> (RECOVER -> ASSISTANT ...) -> RESPOND -> CONTINUE
      ^                                                                          |
      +---------------------- follow-up or clarification ----------------------+ -> END

The machine owns the live session and the transcript; the teacher only proposes (a user
message, an assistant move, whether to continue). Every assistant move passes a format
validator (known tool, arguments a JSON object, and, in grounded mode, every entity reference
known from the sampling context, a user message or an earlier tool output); a bad move is
regenerated with the validator's feedback. Calls run on the live session and their results go
back to the teacher, which recovers from failures (corrected arguments, another tool) or gives
up gracefully. Each turn ends with an outcome: SUCCESS, PARTIAL or FAILURE.

`finish` turns the transcript into a record: gold calls are the calls that succeeded (failed
attempts stay in `messages` only), with `after` edges from actual data flow and the dependency
graph; the fingerprint is the session's after the last call; provenance says where each
sensitive value first appeared.
"""

from __future__ import annotations

import enum
import json
import random
import re
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..env import Server, Session, Tool, ToolResult
from ..env.world import EPOCH
from .entities import EntityIndex, extract_entities, own_ids
from .graph import NONE, DependencyGraph
from .sampler import SamplingContext

if TYPE_CHECKING:
    from .teachers import Teacher
    from .teachers.wording import Wording

__all__ = ["Call", "Conversation", "ConversationSpec", "Machine", "Move", "Outcome", "Phase", "Rejected",
           "run_sync", "sensitive_provenance"]

T = TypeVar("T")


class Phase(str, enum.Enum):
    QUERY = "query"
    ASSISTANT = "assistant"
    EXECUTE = "execute"
    RECOVER = "recover"
    RESPOND = "respond"
    CONTINUE = "continue"
    END = "end"


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


@dataclass
class Move:
    """The assistant's move: calls (with optional text before them), or a final text."""

    text: str | None = None
    calls: list[Call] = field(default_factory=list)


@dataclass
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
    chain: list[str] = field(default_factory=list)
    turns: int = 2
    tools: list[dict[str, Any]] = field(default_factory=list)
    perturbations: list[str] = field(default_factory=list)
    hidden: set[str] = field(default_factory=set)
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

    def __init__(self, spec: ConversationSpec, session: Session, index: EntityIndex, wording: Wording) -> None:
        self.spec = spec
        self.session = session
        self.index = index
        self.wording = wording
        self.server = spec.server
        self.messages: list[dict[str, Any]] = []
        self.users: list[str] = []
        self.executed: list[Executed] = []
        self.created: dict[str, set[str]] = {}
        self.phase = Phase.QUERY
        self.turn = -1
        self.scratch: dict[str, Any] = {}
        self.regenerations = 0
        self.feedback: list[str] = []
        self.outcomes: list[str] = []
        self.strategies: list[str] = []
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
        pattern = _token(value)
        for m in self.messages:
            if m["role"] in ("user", "tool") and isinstance(m.get("content"), str) and pattern.search(m["content"]):
                return True
        return False

    def hide(self, names: Iterable[str]) -> None:
        """Take tools out of the model's view (before the first assistant move): a hidden-tool perturbation."""
        names = set(names)
        self.spec.tools = [t for t in self.spec.tools if t["function"]["name"] not in names]
        self.spec.hidden |= names
        self.shown -= names
        if "hidden_tool" not in self.spec.perturbations:
            self.spec.perturbations.append("hidden_tool")

    # ----- transcript ------------------------------------------------------------------------

    def add_system(self, text: str) -> None:
        self.messages.append({"role": "system", "content": text})

    def add_user(self, text: str) -> None:
        self.turn += 1
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
            args = _as_args(call.arguments)
            refs = self._refs(call.name, args)
            result = self.session.call(call.name, args if args is not None else call.arguments)
            if result.ok:
                tool = self.server.tools.get(call.name)
                if tool is not None:
                    for kind, value, _ in extract_entities(tool, result.data):
                        self.created.setdefault(kind, set()).add(value)
            self.messages.append({"role": "tool", "tool_call_id": cid, "name": str(call.name), "content": result.text()})
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
                for v in _values(args[p.name]):
                    refs.append((p.entity, v, self.index.exists(p.entity, v, self.created)))
        return refs


def _as_args(arguments: Any) -> dict[str, Any] | None:
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, (str, bytes)):
        try:
            parsed = json.loads(arguments)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


def _values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


_TOKEN_CACHE: dict[str, re.Pattern[str]] = {}


def _token(value: str) -> re.Pattern[str]:
    found = _TOKEN_CACHE.get(value)
    if found is None:
        if len(_TOKEN_CACHE) > 50_000:
            _TOKEN_CACHE.clear()
        found = _TOKEN_CACHE[value] = re.compile(r"(?<![0-9A-Za-z])" + re.escape(value) + r"(?![0-9A-Za-z])")
    return found


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (the programmatic teacher) without an event loop."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("the coroutine suspended; run it in an event loop")


def validate_move(conv: Conversation, move: Move) -> list[str]:
    """What is wrong with a move's format (empty: nothing). Execution errors are not format errors."""
    problems = []
    if not move.calls and not (move.text and move.text.strip()):
        return ["the answer has neither tool calls nor text"]
    known = None
    for call in move.calls:
        if not isinstance(call.name, str) or conv.tool(call.name) is None:
            shown = sorted(conv.shown)
            problems.append(f"unknown tool {call.name!r}; the tools are: {', '.join(shown[:40])}")
            continue
        args = _as_args(call.arguments)
        if args is None:
            problems.append(f"the arguments of {call.name} are not a JSON object: {str(call.arguments)[:120]}")
            continue
        if conv.spec.ungrounded or call.mistake:
            continue
        tool = conv.tool(call.name)
        assert tool is not None
        for p in tool.params:
            if not p.entity or p.name not in args:
                continue
            if known is None:
                known = conv.known_values()
            for v in _values(args[p.name]):
                if v not in known and not conv.mentioned(v):
                    problems.append(f"{call.name}.{p.name} = {v!r} is not an entity of the live state; use an "
                                    f"ID from the context, the user or a tool result")
    return problems


def outcome_of(calls: list[Executed]) -> Outcome:
    """A turn's outcome: every failure recovered (SUCCESS), some not (PARTIAL), nothing worked (FAILURE)."""
    if not calls:
        return Outcome.NONE
    if not any(c.result.ok for c in calls):
        return Outcome.FAILURE
    for i, c in enumerate(calls):
        if not c.result.ok and not any(later.name == c.name and later.result.ok for later in calls[i + 1:]):
            return Outcome.PARTIAL
    return Outcome.SUCCESS


class Machine:
    """Runs conversations: one spec and one teacher in, a transcript out."""

    def __init__(self, index_for: Any) -> None:
        # index_for(server, world) -> EntityIndex (cached by the caller)
        self._index_for = index_for

    async def run(self, spec: ConversationSpec, teacher: Teacher) -> Conversation:
        from .teachers.wording import Wording

        session = Session([spec.server], world=spec.world, session_id=spec.id)
        conv = Conversation(spec, session, self._index_for(spec.server, spec.world), Wording(spec.rng("wording")))
        conv.add_system(conv.wording.system(spec.server, EPOCH))
        try:
            await self._loop(conv, teacher)
        except BaseException:
            session.close()
            raise
        return conv

    async def _loop(self, conv: Conversation, teacher: Teacher) -> None:
        spec = conv.spec
        for _ in range(spec.max_turns + 1):
            conv.phase = Phase.QUERY
            text = await teacher.query(conv)
            if text is None:
                break
            conv.add_user(text)
            start = len(conv.executed)
            for _step in range(spec.max_steps):
                conv.phase = Phase.ASSISTANT if conv.phase != Phase.RECOVER else Phase.RECOVER
                move = await self._assistant(conv, teacher)
                if move.calls:
                    conv.phase = Phase.EXECUTE
                    results = conv.execute(move)
                    conv.phase = Phase.RECOVER if any(not r.result.ok for r in results) else Phase.ASSISTANT
                    continue
                conv.phase = Phase.RESPOND
                conv.add_text(move.text or "")
                break
            else:
                raise Rejected("too_many_steps", f"turn {conv.turn} did not end within {spec.max_steps} steps")
            conv.outcomes.append(outcome_of(conv.executed[start:]).value)
            conv.phase = Phase.CONTINUE
            decision = await teacher.continuation(conv)
            if decision == "end" or conv.turn + 1 >= spec.max_turns:
                break
        conv.phase = Phase.END

    async def _assistant(self, conv: Conversation, teacher: Teacher) -> Move:
        feedback = None
        for attempt in range(conv.spec.max_regenerations + 1):
            move = await teacher.assistant(conv, feedback)
            problems = validate_move(conv, move)
            if not problems:
                return move
            conv.regenerations += 1
            conv.feedback.extend(problems)
            feedback = "Your previous answer was rejected: " + "; ".join(problems)
        raise Rejected("teacher_format", feedback or "")


# ----- from a transcript to a record --------------------------------------------------------------


def sensitive_provenance(messages: list[dict[str, Any]], calls: Iterable[tuple[str, int, str, dict[str, Any]]],
                         server: Server) -> tuple[list[dict[str, Any]], list[str]]:
    """Where each sensitive argument of the calls first appeared; and the ones that never did.

    `calls` holds (call id, index of its assistant message, tool name, arguments).
    """
    found: list[dict[str, Any]] = []
    missing: list[str] = []
    for cid, at, name, args in calls:
        tool = server.tools.get(name)
        if tool is None:
            continue
        for p in tool.params:
            if not p.sensitive or p.name not in args:
                continue
            for value in _values(args[p.name]) or [str(args[p.name])]:
                pattern = _token(value)
                where = next((i for i, m in enumerate(messages[:at]) if m["role"] in ("user", "tool")
                              and isinstance(m.get("content"), str) and pattern.search(m["content"])), None)
                if where is None:
                    missing.append(f"{cid}.{p.name}")
                else:
                    found.append({"call": cid, "argument": p.name, "message": where,
                                  "source": messages[where]["role"]})
    return found, missing


def _after(conv: Conversation, gold: list[Executed], graph: DependencyGraph) -> dict[str, list[str]]:
    """Dependency edges between gold calls: actual data flow, and set-up writes the graph links.

    - data flow: an entity argument of the call first appeared in an earlier call's output (and
      not in a user message before that call: then it is the user's);
    - set-up: an earlier write, linked to this tool in the dependency graph, whose subject this
      call names or returns. A write's subject is what it named or returned *and* the episode
      changed (rows inserted, updated or deleted, by key): creating a deal on an account makes the
      deal, not the account, its subject, so a contact added to that account does not wait for it.
    """
    edges: dict[str, list[str]] = {}
    writes = [g for g in gold if (t := conv.server.tools.get(g.name)) is not None and t.effect.value == "write"]
    changed: set[str] = set()
    if writes:
        changed = {v for ch in conv.session.diff() for v in ch.key.values() if isinstance(v, str)}
    first_user: dict[str, int] = {}
    user_texts = [(i, m["content"]) for i, m in enumerate(conv.messages) if m["role"] == "user"]
    done: list[tuple[Executed, set[str], set[str]]] = []  # (call, output entities, subject if a write)
    for g in gold:
        tool = conv.server.tools.get(g.name)
        produced = {v for _, v, _ in extract_entities(tool, g.result.data)} if tool else set()
        args = g.arguments if isinstance(g.arguments, dict) else {}
        arg_ids = {v for p in (tool.params if tool else ()) if p.entity and p.name in args
                   for v in _values(args[p.name])}
        deps: list[str] = []
        for value in sorted(arg_ids):
            source = next((prev for prev, out, _ in done if value in out), None)
            if source is None:
                continue
            said = first_user.get(value)
            if said is None:
                pattern = _token(value)
                said = next((i for i, text in user_texts if pattern.search(text)), 10**9)
                first_user[value] = said
            if said < source.message:
                continue
            if source.id not in deps:
                deps.append(source.id)
        touched = arg_ids | (own_ids(tool, g.result.data) if tool else set())
        for prev, _, subject in done:
            if prev.id not in deps and subject & touched and graph.label(prev.name, g.name) != NONE:
                deps.append(prev.id)
        order = {e.id: i for i, e in enumerate(gold)}
        edges[g.id] = sorted(deps, key=order.__getitem__)
        subject: set[str] = set()
        if tool is not None and tool.effect.value == "write":
            subject = (arg_ids | own_ids(tool, g.result.data)) & changed
        done.append((g, produced, subject))
    return edges


def finish(conv: Conversation) -> tuple[dict[str, Any], dict[str, Any]]:
    """The example record (a plain dict in the `records.Example` shape) and its statistics."""
    spec = conv.spec
    gold = [e for e in conv.executed if e.result.ok]
    edges = _after(conv, gold, spec.graph)
    turns = []
    for t, text in enumerate(conv.users):
        calls = [{"id": e.id, "name": e.name, "arguments": e.arguments, "after": edges[e.id]}
                 for e in gold if e.turn == t]
        turns.append({"user": text, "calls": calls})
    provenance, missing = sensitive_provenance(
        conv.messages, [(e.id, e.message, e.name, e.arguments) for e in gold if isinstance(e.arguments, dict)],
        conv.server)
    kind = spec.kind
    if kind in ("multi_turn", "clarification") and not gold:
        raise Rejected("no_successful_calls", "the conversation made no call that succeeded")
    if kind in ("abstention", "irrelevance") and gold:
        kind = "multi_turn"
    if kind == "clarification" and (not turns or turns[0]["calls"]):
        kind = "multi_turn"
    example = {
        "id": spec.id,
        "servers": [spec.server.name],
        "world": spec.world,
        "kind": kind,
        "perturbations": sorted(spec.perturbations),
        "tools": spec.tools,
        "messages": conv.messages,
        "turns": turns,
        "fingerprint": conv.session.fingerprint(),
        "provenance": provenance,
        "meta": {
            "teacher": spec.teacher, "chain": spec.chain, "level": spec.level, "seed": spec.seed,
            "index": spec.index, "world": spec.world, "context_block": spec.context.block,
            "grounded": not spec.ungrounded, "outcomes": conv.outcomes, "persona": conv.wording.persona.name,
            "strategies": conv.strategies,
        },
    }
    gold_refs = [r for e in gold for r in e.refs]
    intended = [r for e in conv.executed if e.mistake is None for r in e.refs]
    stats = {
        "calls": len(conv.executed), "failed": sum(not e.result.ok for e in conv.executed),
        "gold": len(gold), "turns": len(turns), "regenerations": conv.regenerations,
        "outcomes": conv.outcomes, "refs": len(intended), "refs_exist": sum(r[2] for r in intended),
        "gold_refs": len(gold_refs), "gold_refs_exist": sum(r[2] for r in gold_refs),
        "sensitive_missing": missing, "strategies": conv.strategies,
    }
    return example, stats
