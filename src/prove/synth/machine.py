"""Stage 3: the conversation state machine.

    QUERY -> ASSISTANT -> EXECUTE -> (RECOVER -> ASSISTANT ...) -> RESPOND -> CONTINUE
      ^                                                                          |
      +---------------------- follow-up or clarification ----------------------+ -> END

The machine owns the live session and the transcript; the teacher only proposes (a user
message, an assistant move, whether to continue). Every assistant move passes a format
validator (known tool, arguments a JSON object, and, in grounded mode, every entity reference
one of the live state: the sampling context, the world, a user message or an earlier tool output); a bad move is
regenerated with the validator's feedback. Calls run on the live session and their results go
back to the teacher, which recovers from failures (corrected arguments, another tool) or gives
up gracefully. Each turn ends with an outcome: SUCCESS, PARTIAL or FAILURE.

`finish` turns the transcript into a record: gold calls are the calls that succeeded (failed
attempts stay in `messages` only), with `after` edges from actual data flow and the dependency
graph; the fingerprint is the session's after the last call; provenance says where each
sensitive value first appeared.
"""

from __future__ import annotations

from collections.abc import Coroutine, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from ..env import Server, Session
from ..records import Example
from .contract import (
    Conversation,
    ConversationSpec,
    Executed,
    Move,
    Outcome,
    Rejected,
    Teacher,
    as_args,
    entity_values,
    token,
)
from .entities import extract_entities, own_ids
from .graph import NONE, DependencyGraph
from .wording import system_prompt

__all__ = ["Machine", "finish", "fresh_episode", "run_sync", "sensitive_provenance"]

T = TypeVar("T")


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
        args = as_args(call.arguments)
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
            for v in entity_values(args[p.name]):
                if v not in known and not conv.index.exists(p.entity, v, conv.created) and not conv.mentioned(v):
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
        session = Session([spec.server], world=spec.world, session_id=spec.id)
        conv = Conversation(spec, session, self._index_for(spec.server, spec.world))
        try:
            await self._loop(conv, teacher)
        except BaseException:
            session.close()
            raise
        return conv

    async def _loop(self, conv: Conversation, teacher: Teacher) -> None:
        spec = conv.spec
        for _ in range(spec.max_turns + 1):
            text = await teacher.query(conv)
            if text is None:
                break
            advance = teacher.advance(conv)
            if not conv.messages:  # the conversation starts once that time has passed: so does its date
                if advance:
                    conv.session.advance(advance)
                    conv.decided.advance[0] = advance
                    advance = 0
                conv.add_system(system_prompt(spec.server, conv.session.now, spec.rng("system")))
            conv.add_user(text, advance)
            start = len(conv.executed)
            for _step in range(spec.max_steps):
                move = await self._assistant(conv, teacher)
                if move.calls:
                    conv.execute(move)
                    continue
                conv.add_text(move.text or "")
                break
            else:
                raise Rejected("too_many_steps", f"turn {conv.turn} did not end within {spec.max_steps} steps")
            conv.outcomes.append(outcome_of(conv.executed[start:]).value)
            decision = await teacher.continuation(conv)
            if decision == "end" or conv.turn + 1 >= spec.max_turns:
                break

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
            for value in entity_values(args[p.name]) or [str(args[p.name])]:
                pattern = token(value)
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
                   for v in entity_values(args[p.name])}
        deps: list[str] = []
        for value in sorted(arg_ids):
            source = next((prev for prev, out, _ in done if value in out), None)
            if source is None:
                continue
            said = first_user.get(value)
            if said is None:
                pattern = token(value)
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


@contextmanager
def fresh_episode(server: Server, world: int, episode: Session | None = None,
                  session_id: str | None = None) -> Iterator[Session]:
    """A fresh episode of `world`: a trial of `episode`, an untouched session of that world kept
    for this (it stays untouched: a trial costs a transaction, not a new database), else a new
    session."""
    if episode is None:
        with Session([server], world=world, session_id=session_id) as session:
            yield session
    else:
        with episode.trial() as session:
            yield session


def _replay(turns: list[dict[str, Any]], server: Server, world: int, episode: Session | None) -> tuple[str, list[bool]]:
    """The final state and each call's success when a record's gold calls run in this order."""
    with fresh_episode(server, world, episode) as session:
        ok = []
        for turn in turns:
            if turn.get("advance"):
                session.advance(turn["advance"])
            ok.extend(session.call(c["name"], c["arguments"]).ok for c in turn["calls"])
        return session.fingerprint(), ok


def order_edges(turns: list[dict[str, Any]], server: Server, world: int, fingerprint: str,
                episode: Session | None = None) -> int:
    """Order two adjacent calls of a turn that no edge orders where their order matters.

    Every order of a turn's calls that keeps the `after` edges must end in the same state with
    every call succeeding (the reward scores such an order as gold). Data flow and the graph find
    most orderings; this finds the rest by running the calls the other way round (two writes to
    one balance, a rename then a move), each time on a fresh episode (`fresh_episode`). Returns
    how many edges it added.

    In the recorded order the calls end in `fingerprint`, the episode's, every one succeeding:
    validation replays them and rejects the record where they do not. So only the swapped orders
    run.
    """
    added = 0
    position = {c["id"]: k for k, c in enumerate(c for turn in turns for c in turn["calls"])}
    baseline = (fingerprint, [True] * len(position))
    for turn in turns:
        calls = turn["calls"]
        for i in range(len(calls) - 1):
            first, second = calls[i], calls[i + 1]
            if _orders(calls, second, first["id"]) or any(server.tools[c["name"]].read_only for c in (first, second)):
                continue  # ordered already, or a read: it changes no state (what it needs flows to it)
            calls[i], calls[i + 1] = second, first
            swapped = _replay(turns, server, world, episode)
            calls[i], calls[i + 1] = first, second
            if swapped != baseline:
                second["after"] = sorted({*second["after"], first["id"]}, key=position.__getitem__)
                added += 1
    return added


def _orders(calls: list[dict[str, Any]], call: dict[str, Any], earlier: str) -> bool:
    """Whether `call` waits for `earlier`, directly or through other calls of the turn."""
    by_id = {c["id"]: c for c in calls}
    stack, seen = list(call["after"]), set()
    while stack:
        cid = stack.pop()
        if cid == earlier:
            return True
        if cid in seen or cid not in by_id:
            continue
        seen.add(cid)
        stack.extend(by_id[cid]["after"])
    return False


def finish(conv: Conversation, episode: Session | None = None) -> tuple[Example, dict[str, Any]]:
    """The example record and its statistics (`episode`: see `fresh_episode`)."""
    spec = conv.spec
    decided = conv.decided
    gold = [e for e in conv.executed if e.result.ok]
    edges = _after(conv, gold, spec.graph)
    turns = []
    for t, text in enumerate(conv.users):
        calls = [{"id": e.id, "name": e.name, "arguments": e.arguments, "after": edges[e.id]}
                 for e in gold if e.turn == t]
        turn: dict[str, Any] = {"user": text, "calls": calls}
        if decided.advance.get(t):
            turn["advance"] = decided.advance[t]
        turns.append(turn)
    fingerprint = conv.session.fingerprint()
    order_edges(turns, spec.server, spec.world, fingerprint, episode)
    provenance, missing = sensitive_provenance(
        conv.messages, [(e.id, e.message, e.name, e.arguments) for e in gold if isinstance(e.arguments, dict)],
        conv.server)
    kind = decided.kind
    if kind in ("multi_turn", "clarification") and not gold:
        raise Rejected("no_successful_calls", "the conversation made no call that succeeded")
    if kind in ("abstention", "irrelevance") and gold:
        kind = "multi_turn"
    if kind == "clarification" and (not turns or turns[0]["calls"]):
        kind = "multi_turn"
    gold_ids = {e.id for e in gold}
    meta: dict[str, Any] = {
        "teacher": spec.teacher, "chain": decided.chain, "level": decided.level, "seed": spec.seed,
        "index": spec.index, "world": spec.world, "context_block": spec.context.block,
        "grounded": not spec.ungrounded, "outcomes": conv.outcomes, "strategies": decided.strategies,
    }
    if decided.persona:
        meta["persona"] = decided.persona
    if decided.wording:
        meta["wording"] = list(decided.wording)
    bindings = {cid: b for cid, b in decided.bindings.items() if cid in gold_ids and b}
    if bindings:
        meta["bindings"] = bindings
    example = Example.model_validate({
        "id": spec.id, "servers": [s.name for s in spec.server.members], "world": spec.world, "kind": kind,
        "perturbations": sorted(decided.perturbations), "tools": conv.tools, "messages": conv.messages,
        "turns": turns, "fingerprint": fingerprint, "provenance": provenance, "meta": meta,
    })
    gold_refs = [r for e in gold for r in e.refs]
    intended = [r for e in conv.executed if e.mistake is None for r in e.refs]
    stats = {
        "calls": len(conv.executed), "failed": sum(not e.result.ok for e in conv.executed),
        "gold": len(gold), "turns": len(turns), "regenerations": conv.regenerations,
        "outcomes": conv.outcomes, "refs": len(intended), "refs_exist": sum(r[2] for r in intended),
        "gold_refs": len(gold_refs), "gold_refs_exist": sum(r[2] for r in gold_refs),
        "sensitive_missing": missing, "strategies": decided.strategies,
    }
    return example, stats
