"""The programmatic teacher: grounded conversations with no model.

At the first QUERY it plans the whole conversation in a trial of the live session (`Session.trial`:
whatever the plan does there is undone):

1. For each tool of the chain it picks an `asks` phrasing and fills the arguments. An entity
   comes from an earlier tool output of the episode (data flow) or from the sampling context;
   at the *minimal* information level the user names it by its label and the assistant looks
   it up first. A sensitive value comes from a hidden read tool (the PIN a customer knows) and
   is said by the user. Anything else comes from `ValueMaker`.
2. Each candidate is screened in the trial: a call that fails leaves no trace (every call runs
   in a savepoint), so the teacher tries a few candidates and keeps one that works.
3. Turns follow the data: a later call that needs an ID the user cannot know yet goes to the
   next turn, after the assistant's reply has shown it; then turns are split to reach 2-3.
4. Words: user turns from the phrasings, assistant replies from the results, a deliberate
   mistake and its recovery in some conversations, a request that fails and a graceful
   give-up in a few.

The machine then plays the plan on the real session; every result must equal the planned one.

`ungrounded` (the contrast run) plans without the sampling context: user-given entity IDs are
invented in the format the tool documents ('ACC-10001' -> 'ACC-48213'), as a model without the
context does; such calls fail, are retried once with another invented ID, then given up.
"""

from __future__ import annotations

import functools
from datetime import date, timedelta
import re
import weakref
from dataclasses import dataclass, field, replace
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...env import Ask, Server, Session, Tool, ToolResult
from ...env.asks import result_field, words_in
from ...env.annotations import Effect
from ...env.combined import Combined
from ...env.errors import INTERNAL_ERROR, INVALID_ARGUMENTS, TIMEOUT, UNKNOWN_TOOL
from ...env.fake import Person
from ...env.world import EPOCH, clock_params
from ..contract import Call, Conversation, Move, Rejected
from ..entities import entity_fields, extract_entities, found_nothing, iter_records, record_fields
from ..graph import EXPLICIT, lookup_param, undoes
from ..phrasing import PERSON_NOUNS, QUERY_PARAMS, Phrasing, row_noun, spoken_to_user, today_said
from ..results import LABELS
from ..values import DAY, ValueMaker, day, example_of, is_money, render_value
from ..wording import Wording, _lower_first, kept_to, window_said

__all__ = ["ProgrammaticTeacher"]

MAX_TRIES = 8
# Errors that passing time can cure (a meeting that starts later, a bill not yet due, a market
# that opens at 9:30), and the waits tried before the conversation, shortest first.
WAIT_CODES = frozenset({"too_early", "not_due_yet", "not_due", "market_closed", "restaurant_closed", "store_closed",
                        "place_closed", "check_in_not_open", "meeting_not_started"})
WAITS = (900, 3600, 3 * 3600, 6 * 3600, *(d * 86_400 for d in range(1, 8)))
_QUARTER_HOUR = 900
_SCHEMA_CODES = {INVALID_ARGUMENTS, UNKNOWN_TOOL, INTERNAL_ERROR, TIMEOUT, "not_found"}
_ALIASES = {"security_code": {"cvv", "cvc", "cvv2"}, "cvv": {"security_code", "cvc"}, "pin": {"passcode"},
            "passcode": {"pin"}}
_ID_SHAPE = re.compile(r"^([A-Z][A-Z0-9]*)-(\d+)$")


@dataclass
class Source:
    kind: str  # "user", "flow" or "secret"
    step: int | None = None
    mode: str = "id"  # how the user refers to it: "id", "label", "new" or "cite"
    text: str | None = None


@dataclass
class Step:
    tool: Tool
    args: dict[str, Any]
    sources: dict[str, Source]
    result: ToolResult
    phrase: Ask | None
    asked: bool = True
    discovery_for: int | None = None
    infeasible: bool = False
    turn: int = 0
    cite: set[str] = field(default_factory=set)
    # After a write: the things the conversation has changed so far, as they are then (kind -> ID -> row);
    # a later request tells them by that ("the event 'Sync' from March 19" once moved there).
    after: dict[str, dict[str, dict[str, Any]]] | None = None

    @functools.cached_property
    def refs(self) -> list[tuple[str, str, Mapping[str, Any]]]:
        """The entity references of its result, (kind, ID, record) in document order: read once."""
        return extract_entities(self.tool, self.result.data)


@dataclass
class PlannedTurn:
    user: str
    moves: list[Move]
    question: bool = False


@dataclass
class _Playback:
    """Where the machine is in a conversation's plan."""

    turns: list[PlannedTurn]
    expected: list[str | None]
    advance: int = 0  # simulated seconds that pass before the first turn
    turn: int = -1
    move: int = 0
    checked: int = 0


class ProgrammaticTeacher:
    """Plans in a trial of the session, then plays the plan (see the module docstring)."""

    id = "programmatic"

    def __init__(self) -> None:
        self._plans: weakref.WeakKeyDictionary[Conversation, _Playback] = weakref.WeakKeyDictionary()

    def classifier(self) -> None:
        return None

    async def aclose(self) -> None:
        return None

    def advance(self, conv: Conversation) -> int:
        state = self._plan(conv)
        return state.advance if state.turn == 0 else 0

    def _plan(self, conv: Conversation) -> _Playback:
        state = self._plans.get(conv)
        if state is None:
            planner = Planner(conv)
            state = self._plans[conv] = _Playback(planner.plan(), planner.expected, planner.advance)
        return state

    async def query(self, conv: Conversation) -> str | None:
        state = self._plan(conv)
        state.turn += 1
        state.move = 0
        if state.turn >= len(state.turns):
            return None
        return state.turns[state.turn].user

    async def assistant(self, conv: Conversation, feedback: str | None = None) -> Move:
        state = self._plan(conv)
        self._check(conv, state)
        turn = state.turns[state.turn]
        if feedback is not None:  # never happens for a plan; fail loudly rather than loop
            raise Rejected("teacher_format", feedback)
        move = turn.moves[state.move]
        state.move += 1
        return move

    def planned_calls(self, conv: Conversation, start: int, stop: int | None = None) -> list[Call]:
        """The intended calls (deliberate mistakes left out) the plan makes in user turns `start` to `stop`."""
        return [call for planned in self._plan(conv).turns[start:stop] for move in planned.moves
                for call in move.calls if call.mistake is None]

    def _check(self, conv: Conversation, state: _Playback) -> None:
        """Every result of the real session must equal the planned one."""
        for done in conv.executed[state.checked:]:
            want = state.expected[state.checked] if state.checked < len(state.expected) else None
            if want is not None and want != done.result.text():
                raise Rejected("plan_diverged", f"{done.name} returned something else than planned")
            state.checked += 1

    async def continuation(self, conv: Conversation) -> str:
        state = self._plan(conv)
        self._check(conv, state)
        if state.turn + 1 >= len(state.turns):
            return "end"
        return "clarification" if state.turns[state.turn].question else "follow_up"


class Planner:
    """Builds one conversation's plan (see the module docstring)."""

    def __init__(self, conv: Conversation) -> None:
        self.conv = conv
        self.spec = conv.spec
        self.server = conv.server
        self.rng = self.spec.rng("plan")
        self.words = Wording(self.spec.rng("wording"), now=conv.session.now)
        conv.decided.persona = self.words.persona.name
        self.decided = conv.decided
        self.ungrounded = self.spec.ungrounded
        self.say = Phrasing(self.server, self.spec.context, conv.index, self.words)
        self._starts: dict[tuple[str, str], int] = {}
        self.values = ValueMaker(None if self.ungrounded else self.spec.context, self.rng)
        self.index = conv.index
        self.expected: list[str | None] = []
        self.advance = 0  # seconds that pass before the conversation, found while planning its first call
        # In a combined view: which entities of different servers are the same thing (by the bridges).
        self.links = self.server.links(self.spec.world) if isinstance(self.server, Combined) else {}

    # ----- entry -------------------------------------------------------------------------------

    def plan(self) -> list[PlannedTurn]:
        kind = self.spec.kind
        if kind == "irrelevance":
            examples = self.rng.sample(self.server.visible_tools, min(2, len(self.server.visible_tools)))
            turns = [PlannedTurn(self.words.off_topic(), [Move(text=self.words.decline(self.server, examples))])]
        elif kind == "abstention":
            turns = self._abstention()
        else:
            turns = self._task()
        return turns

    def _abstention(self) -> list[PlannedTurn]:
        name = self.spec.abstain_tool
        tool = self.server.tools.get(name or "")
        if tool is None:
            raise Rejected("plan_failed", "no tool to abstain on")
        asks = [a for a in tool.asks if self._fillable(tool, a, [])]
        if not asks:
            raise Rejected("plan_failed", f"{tool.name} has no phrasing that says every required argument")
        ask = self.rng.choice(asks)
        props = tool.parameters.get("properties", {})
        found = {s: self._candidates(self._param_of(tool, s)) if not self.ungrounded else []
                 for s in ask.slots if self._param_of(tool, s).entity}
        together = {n.strip() for key in tool.values if "," in key for n in key.split(",")}
        # The request is one the tool would have served: drawn again where the state refuses it (a
        # stay from March 19 to March 17, an Atlanta hotel for the trip 'Anniversary in Amsterdam').
        for attempt in range(_ABSTAIN_TRIES):
            args: dict[str, Any] = dict(ask.binds)
            for slot in sorted(ask.slots, key=lambda s: len(found.get(s, ()))):  # the fewest choices first
                p = self._param_of(tool, slot)
                if p.entity and slot not in together:
                    # (nothing is called: with none in the state the tool needs, any of its kind is named,
                    # "stop recording the meeting 'Weekly sync'", never an invented "meeting MTG-45150")
                    known = list(self.spec.context.ids(p.entity)) if not self.ungrounded else []
                    pool = found[slot] or known
                    # not "from Sushi Maple to Sushi Maple": another of its kind where the state has one only
                    ids = [i for i in pool if i not in args.values()] or [i for i in known if i not in args.values()] \
                        or pool
                    args[slot] = self.rng.choice(ids) if ids else self._invent(p.description, p.entity)
                elif p.name in QUERY_PARAMS and tool.read_only and not self.ungrounded \
                        and not _has_values(tool, p.name) and (query := self._query(tool, attempt, ask, slot)) is not None:
                    args[slot] = query  # "Do you sell Portable Fire Pit?", as a search would ask, not "... Capitol?"
                else:  # values that belong together agree: a dutch oven is listed under Home & Kitchen
                    args[slot] = self._plain_value(tool, p, props.get(p.name, {}), attempt, args)
            if self.ungrounded or self._would_serve(tool, args):
                break
        user = self.words.user_turn([self.say.request(tool, ask, args, {})], 0)
        return [PlannedTurn(user, [Move(text=self.words.abstain(tool, self.server))])]

    def _would_serve(self, tool: Tool, args: Mapping[str, Any]) -> bool:
        """Whether the tool, had the assistant had it, would have done what a request asks."""
        with self.conv.session.trial() as probe:
            return probe.call(tool.name, dict(args)).ok

    # ----- a task ------------------------------------------------------------------------------

    def _task(self) -> list[PlannedTurn]:
        chain = self._with_needs([t for t in self.spec.chain if t in self.conv.shown])
        steps: list[Step] = []
        tries = 6 if self.links else 3  # (a chain across servers must also carry something across)
        for attempt in range(tries):
            self.advance = 0
            with self.conv.session.trial() as sess:
                steps = self._steps(chain, sess)
            planned = sum(s.asked for s in steps) >= 2 and (not self.links or self._carries(steps))
            if planned or (attempt == tries - 1 and steps):
                break
            walk_rng = self.spec.rng(f"rewalk{attempt}")
            length = max(3, len(self.spec.chain))
            walked = self.spec.graph.cross_walk(walk_rng, length) if self.links else \
                self.spec.graph.walk(walk_rng, length, avoid=self.spec.hidden)
            chain = self._with_needs([t for t in walked if t in self.conv.shown])
        if not any(s.asked and not s.infeasible for s in steps) and not (self.ungrounded and steps):
            # (An ungrounded plan is played even when every step fails: that failure is what it measures.)
            raise Rejected("plan_failed", "no step of the chain could be planned")
        self.decided.chain = [s.tool.name for s in steps if s.asked]
        turns = self._turns(steps)
        return self._write(steps, turns)

    def _with_needs(self, chain: list[str]) -> list[tuple[str, str | None]]:
        """The chain with each tool's set-up tools (`needs`) placed before it, once: each entry a
        tool and, for a set-up, the tool it is there for."""
        out: list[tuple[str, str | None]] = []
        for name in chain:
            for need in self.server.tools[name].needs:
                if all(n != need for n, _ in out) and need in self.conv.shown:
                    out.append((need, name))
            if all(n != name for n, _ in out) or self.server.tools[name].read_only:
                out.append((name, None))
        return out

    def _steps(self, chain: list[tuple[str, str | None]], sess: Session) -> list[Step]:
        """Plan the chain in the trial. A set-up runs only where the world calls for it: where the
        tool it is for works already (the trunk is open), it is left out; where the set-up is the
        very thing the tool takes back (open the trunk, then close it), neither is planned."""
        steps: list[Step] = []
        drop: set[int] = set()
        last = len(chain) - 1
        for pos, (name, owner) in enumerate(chain):
            if pos in drop:
                continue
            if owner is not None:
                group = [j for j in range(pos, len(chain)) if chain[j][1] == owner]
                at = next((j for j in range(group[-1] + 1, len(chain)) if chain[j] == (owner, None)), None)
                if at is not None:
                    if self._ready(self.server.tools[owner], steps, sess):
                        drop.update(group)
                        continue
                    if any(undoes(chain[j][0], owner) for j in group):
                        drop.update(group + [at])
                        continue
            if any(undoes(s.tool.name, name) for s in steps):
                continue  # (one tool's set-up brought in what a later tool takes back: start and end a meeting)
            tool = self.server.tools[name]
            # A give-up is one failed call: only where enough calls keep the failing share under 30%.
            infeasible = (pos == last and len(steps) >= 3 and not self.ungrounded
                          and self.rng.random() < self.spec.infeasible)
            planned = self._step(tool, steps, sess, infeasible)
            if planned:
                steps.extend(planned)
        return steps

    def _ready(self, tool: Tool, steps: list[Step], sess: Session) -> bool:
        """Whether the tool can be planned as things stand, tried in a trial (and the draws undone)."""
        draws, words, advance = self.rng.getstate(), self.words.rng.getstate(), self.advance
        try:
            with sess.trial() as probe:
                planned = self._step(tool, steps, probe, False)
        finally:
            self.rng.setstate(draws)
            self.words.rng.setstate(words)
            self.advance = advance
        return bool(planned) and planned[-1].result.ok

    def _step(self, tool: Tool, steps: list[Step], sess: Session, want_infeasible: bool) -> list[Step]:
        """Plan one tool: try candidates in the trial, return its discovery steps and itself.

        The phrasing comes first and fixes which arguments the call carries: its slots (filled
        here) and its bindings (taken as they are). No other optional argument is set.
        """
        phrase = self._phrase(tool, steps)
        if phrase is None:
            return []
        include = [p for p in tool.params if p.name in phrase.slots]
        props = tool.parameters.get("properties", {})
        tries = 2 if self.ungrounded else MAX_TRIES
        for attempt in range(tries):
            # A binding to the default is said by leaving the argument out ("turn the schedule off").
            args: dict[str, Any] = {name: v for name, v in phrase.binds.items()
                                    if name not in tool.defaults or tool.defaults[name] != v}
            sources: dict[str, Source] = {name: Source("bound") for name in args}
            found: list[Step] = []
            ok = True
            for p in include:
                if not p.entity:
                    continue
                if p.name in phrase.fits:  # "I work at {place_id} now": a workplace, never an apartment block
                    p = replace(p, where=f"({p.where}) AND ({phrase.fits[p.name]})" if p.where else phrase.fits[p.name])
                picked = self._entity(p, tool, steps, found, sess, attempt)
                if picked is None:
                    ok = False
                    break
                args[p.name], sources[p.name] = picked
            if not ok:
                if any(p.entity for p in include):
                    return []
                continue
            record = None
            for p in include:
                if p.sensitive and p.name not in args:
                    args[p.name], record = self._secret(p, tool, args, sess, attempt)
                    sources[p.name] = Source("secret")
            for p in include:
                if p.name in args:
                    continue
                if record is not None:
                    hit = next((record[f] for f in record if _match(p.name, f) and isinstance(record[f], (str, int, float))
                                and not isinstance(record[f], bool)), None)
                    if hit is not None and _fits(hit, props.get(p.name, {})):
                        args[p.name] = hit
                        sources[p.name] = Source("user")
                        continue
                if p.name in QUERY_PARAMS and tool.read_only and not _has_values(tool, p.name):
                    said = self._said([*((s.tool, s.args) for s in [*steps, *found]), (tool, args)])
                    query = self._query(tool, attempt, phrase, p.name, said)
                    if query is not None:
                        args[p.name] = query
                        sources[p.name] = Source("user")
                        continue
                # (a binding left out as the default still picks the values that go with it)
                args[p.name] = self._plain_value(tool, p, props.get(p.name, {}), attempt, {**phrase.binds, **args},
                                                 [*steps, *found])
                sources[p.name] = Source("user")
            _order_pairs(args)
            _cohere(args, sources)
            if tool.read_only:
                _round_window(args, sources)
            before = None if tool.read_only or want_infeasible else sess.fingerprint()
            if before is not None and self._touches_written(tool, args, steps) and self._takes_back(sess, tool, args):
                continue  # it takes back what an earlier request changed: invited then removed, reopened then closed
            if before is not None and self._idle_option(sess, tool, args):
                continue  # "decline it and the rest of its series" of a one-off meeting says more than the call does
            if _reports_gone(args) and _entity_ids(tool, args) & {v for s in steps for v in _entity_ids(s.tool, s.args)}:
                continue  # nobody asks the way to a place and then reports it closed for good
            result = sess.call(tool.name, args)
            if not result.ok and result.code in WAIT_CODES and not steps and not found and not self.advance \
                    and not want_infeasible:
                result = self._wait(sess, tool, args, result)
            if result.ok and tool.read_only and any(n in QUERY_PARAMS for n in args) and found_nothing(result.data) \
                    and not self.ungrounded:
                continue  # a search must find what the user is after (else the step is left out)
            if result.ok and _one_sought(phrase) and isinstance(result.data, Mapping) and result.data.get("total", 1) != 1:
                continue  # "Find the payment for 'Thanks!'" asks for one payment, not for the 35 the words find
            if result.ok and tool.read_only and _empty_listing(result.data) and not self.ungrounded \
                    and attempt < tries - 1 and _arbitrary(args, sources, props):
                continue  # no Noodles under $1, no energy of a door lock: a reading that finds nothing is asked on purpose
            if result.ok and tool.read_only and _empty_listing(result.data) and not self.ungrounded \
                    and any(v not in self.index.ids.get(p.entity, ()) for p in tool.params if p.entity
                            for v in _strs([args.get(p.name)])):
                continue  # nobody asks what a channel made a moment ago holds: nothing yet
            if result.ok and before is not None and sess.fingerprint() == before:
                continue  # a write that changes nothing ("make Home my default" when it is) asks for nothing
            if result.ok and not want_infeasible:
                after = self._after(tool, args, result, steps, sess)
                return self._keep(found, Step(tool, args, sources, result, phrase, after=after), steps)
            if not result.ok:
                code = result.code or ""
                business = code not in _SCHEMA_CODES
                if (want_infeasible and business) or (self.ungrounded and attempt == tries - 1):
                    step = Step(tool, args, sources, result, phrase, infeasible=True)
                    return self._keep(found, step, steps)
            if result.ok and want_infeasible:
                # It worked after all: keep it (the trial has moved on), no give-up this time.
                after = self._after(tool, args, result, steps, sess)
                return self._keep(found, Step(tool, args, sources, result, phrase, after=after), steps)
        return []

    def _after(self, tool: Tool, args: Mapping[str, Any], result: ToolResult, steps: Sequence[Step],
               sess: Session) -> dict[str, dict[str, dict[str, Any]]] | None:
        """After a write: the things of the world the conversation has changed so far, as they are now
        (kind -> ID -> row): those the earlier steps changed, and those this call names or returns,
        read back where they differ from the world's; None after a read."""
        if tool.read_only:
            return None
        out = {kind: dict(rows) for kind, rows in _changed_before(steps, len(steps)).items()}
        named = {(p.entity, v) for p in tool.params if p.entity for v in _strs([args.get(p.name)])}
        named.update((kind, v) for kind, v, _ in extract_entities(tool, result.data))
        for kind, value in sorted(named):
            was = self.index.every.get(kind, {}).get(value)
            if was is not None and (now := sess.row(kind, value)) is not None and now != was:
                out.setdefault(kind, {})[value] = now
        return out

    def _touches_written(self, tool: Tool, args: Mapping[str, Any], steps: list[Step]) -> bool:
        """Whether a call names something an earlier write of the conversation named. An undoing
        call (clear, remove, cancel, ...) also touches what those things belong to: clearing a
        restaurant's cart touches the dish just added to it; placing the order consumes the cart
        and undoes nothing."""
        mine = _entity_ids(tool, args)
        written = [_entity_ids(s.tool, s.args) for s in steps if not s.tool.read_only and s.result.ok]
        if tool.name.startswith((*_UNDOING, "clear_")):
            written = [ids | self._owners(ids) for ids in written]
        return bool(mine) and any(mine & ids for ids in written)

    def _owners(self, ids: set[str]) -> set[str]:
        out: set[str] = set()
        for rows in self.index.rows.values():
            for value in ids & rows.keys():
                out.update(v for k, v in rows[value].items() if k.endswith("_id") and isinstance(v, str))
        return out

    @staticmethod
    def _takes_back(sess: Session, tool: Tool, args: dict[str, Any]) -> bool:
        """Whether the call, tried in a trial, returns something the conversation changed to how it was."""
        changed = _cells(sess)
        with sess.trial() as probe:
            return probe.call(tool.name, args).ok and not changed <= _cells(probe)

    @staticmethod
    def _idle_option(sess: Session, tool: Tool, args: dict[str, Any]) -> bool:
        """Whether a switch the words set (`whole_series`, `apply_to_existing`) does nothing here:
        tried in trials, the call leaves the same state with it as without it."""
        switches = [n for n, v in args.items() if isinstance(v, bool) and n in tool.defaults and tool.defaults[n] != v]
        if not switches:
            return False

        def state(call: dict[str, Any]) -> str | bool:
            with sess.trial() as probe:
                return probe.call(tool.name, call).ok and probe.fingerprint()

        said = state(args)
        return bool(said) and any(state({n: v for n, v in args.items() if n != switch}) == said for switch in switches)

    def _wait(self, sess: Session, tool: Tool, args: dict[str, Any], failed: ToolResult) -> ToolResult:
        """A first call that fails only because it is too early: let time pass before the conversation.

        The shortest wait after which the call succeeds, to the quarter hour, becomes the first
        turn's `advance` (a meeting is started as it opens, not the next morning); the trial moves on
        by it, so the rest of the plan sees the later clock.
        """
        def works(delta: int) -> bool:
            with sess.trial() as probe:
                probe.advance(delta)
                return probe.call(tool.name, args).ok

        shorter = 0
        for delta in WAITS:
            if works(delta):
                while delta - shorter > _QUARTER_HOUR:  # narrow down between the last wait too short and this one
                    middle = (shorter + delta) // 2 // _QUARTER_HOUR * _QUARTER_HOUR
                    if middle <= shorter:
                        break
                    if works(middle):
                        delta = middle
                    else:
                        shorter = middle
                sess.advance(delta)
                self.advance = delta
                return sess.call(tool.name, args)
            shorter = delta
        return failed

    def _plain_value(self, tool: Tool, p: Any, spec: dict[str, Any], attempt: int,
                     args: dict[str, Any] | None = None, steps: Sequence[Step] = ()) -> Any:
        """A non-entity value: the tool's own candidates first, else one made from the schema.

        Candidates that belong together ("rating, comment") are drawn as one: a value already
        in the call (bound by the phrasing, or drawn for a sibling) picks the tuples that agree.
        """
        args = args if args is not None else {}
        for key, candidates in tool.values.items():
            names = [n.strip() for n in key.split(",")]
            if len(names) < 2 or p.name not in names:
                continue
            fits = [c for c in candidates if all(args[n] == v for n, v in zip(names, c) if n in args)]
            if fits:
                pick = fits[(self.rng.randrange(len(fits)) + attempt) % len(fits)]
                return pick[names.index(p.name)]
        candidates = tool.values.get(p.name)
        if candidates:
            return candidates[(self.rng.randrange(len(candidates)) + attempt) % len(candidates)]
        own = self._own_values(tool, p.name, spec, args)
        if own:
            return own[(self.rng.randrange(len(own)) + attempt) % len(own)]
        was = self._price_of(tool, p.name, args)
        if was:  # a listing at $280.50 is repriced to $250, never to $15: down a little, to a round amount
            lower = was * (0.95 - 0.05 * ((self.rng.randrange(5) + attempt) % 5))
            step = 1 if lower < 20 else 5 if lower < 200 else 10
            return float(max(step, lower // step * step))
        was = self._amount_of(tool, p.name, args)
        if was:  # "$67.62 at Costco" is corrected to $64.24 or $74.38, never to $4: a slip of some dollars
            return round(was * (0.85, 0.9, 0.95, 1.05, 1.1, 1.15)[(self.rng.randrange(6) + attempt) % 6], 2)
        near = self._bound_near(tool, p.name, spec, args)
        if near is not None:  # "listings matching 'Black Diamond Spot' for under $30", not "under $300" for a headlamp
            return near
        day = self._day_of(tool, p.name, args)
        if day is not None:  # a transaction filed on the wrong day happened a day or a few off, not months later
            shift = 1 + (self.rng.randrange(4) + attempt) % 4
            today = (EPOCH + timedelta(seconds=self.advance)).date()
            return min(today, day + timedelta(days=shift if self.rng.random() < 0.5 else -shift)).isoformat()
        if p.name in ("name", "full_name") and not tool.read_only and spec.get("type") == "string" \
                and any(self.say.entity_noun(k) in PERSON_NOUNS for k in tool.produces):
            return self.values.fake.person().name  # a new contact is a person, not 'Waiting on'
        person = self._person_in(tool, args, steps) if "email" in p.name and not tool.read_only else None
        if person is not None and spec.get("type") == "string":  # James White's new address is james.white@...
            domain = self.values.fake.email(Person(*person)).rsplit("@", 1)[-1]  # not a docstring's 'newcompany.com'
            return _address(*person, domain)
        # An address is named once in a call: not "Bcc nia.taylor@... on an email to nia.taylor@...";
        # and the user is never asked about by their own name ("what did James O'Brien say?").
        named = {a for v in args.values() for a in (v if isinstance(v, list) else [v]) if isinstance(a, str) and "@" in a}
        shunned = named | self._mine
        if not shunned:
            return self.values.value(p.name, spec, p.description, attempt)
        for tries in range(_REDRAWS):
            value = self.values.value(p.name, spec, p.description, attempt + tries)
            if isinstance(value, list):
                value = [v for v in value if v not in named]
            if value != [] and not (isinstance(value, str) and value in shunned):
                return value
        return value

    def _price_of(self, tool: Tool, name: str, args: Mapping[str, Any]) -> float | None:
        """The price a call's thing has now, where a write sets a new `price` for it; else None."""
        if name != "price" or tool.read_only:
            return None
        return next((float(row["price"]) for row in self._rows_of(tool, args)
                     if isinstance(row.get("price"), (int, float)) and row["price"] > 0), None)

    def _amount_of(self, tool: Tool, name: str, args: Mapping[str, Any]) -> float | None:
        """The amount a call's thing has now, where an update corrects its `amount`; else None."""
        if name != "amount" or tool.read_only or not tool.name.startswith("update_"):
            return None
        return next((abs(float(row["amount"])) for row in self._rows_of(tool, args)
                     if isinstance(row.get("amount"), (int, float)) and not isinstance(row["amount"], bool)
                     and row["amount"]), None)

    def _bound_near(self, tool: Tool, name: str, spec: Mapping[str, Any], args: Mapping[str, Any]) -> float | None:
        """A money bound on a search for words, set as a person sets it, from what such things cost: a
        round amount a little above the dearest the words find (`max_`), or below the cheapest (`min_`);
        None where the call searches no words or the words find nothing priced."""
        if not tool.read_only or spec.get("type") != "number" or not name.startswith(("max_", "min_")):
            return None
        field = name[len("max_"):]
        query = next((v.lower() for k, v in args.items() if k in QUERY_PARAMS and isinstance(v, str)), None)
        if query is None or not is_money(field):
            return None
        prices = [float(row[field]) for kind in sorted(tool.produces) for key, row in self.index.rows.get(kind, {}).items()
                  if isinstance(row.get(field), (int, float)) and not isinstance(row.get(field), bool)
                  and query in self.index.labels.get(kind, {}).get(key, "").lower()]
        if not prices:
            return None
        if name.startswith("max_"):
            top = max(prices) * (1.1 + 0.2 * self.rng.randrange(3))
            step = 5 if top < 100 else 10 if top < 500 else 50
            return float(-(-top // step) * step)
        low = min(prices) * (0.9 - 0.2 * self.rng.randrange(3))
        step = 5 if low < 100 else 10 if low < 500 else 50
        return float(low // step * step) if low >= step else None

    def _rows_of(self, tool: Tool, args: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
        """The world rows of the entities a call names, in parameter order."""
        for q in tool.params:
            value = args.get(q.name)
            row = self.index.rows.get(q.entity or "", {}).get(value) if isinstance(value, str) else None
            if row is not None:
                yield row

    def _day_of(self, tool: Tool, name: str, args: Mapping[str, Any]) -> date | None:
        """The past day a call's thing is dated, where a write sets a new `date` for it; else None."""
        if name != "date" or tool.read_only:
            return None
        return next((date.fromisoformat(row["date"][:10]) for row in self._rows_of(tool, args)
                     if isinstance(row.get("date"), str) and DAY.match(row["date"][:10])), None)

    def _own_values(self, tool: Tool, name: str, spec: dict[str, Any], args: Mapping[str, Any]) -> list[str]:
        """The values a listing's narrowing takes from what it lists of the thing the call names: a
        restaurant's menu is asked for a section of its own ('Pastries' at a bakery, not 'Curries')."""
        if not tool.read_only or spec.get("type") != "string" or "enum" in spec:
            return []
        out: set[str] = set()
        for q in tool.params:
            value = args.get(q.name)
            if not q.entity or not isinstance(value, str):
                continue
            key = self.server.entities[q.entity].key
            for kind in sorted(tool.produces - {q.entity}):
                out.update(row[name] for row in self.index.rows.get(kind, {}).values()
                           if row.get(key) == value and isinstance(row.get(name), str))
        return sorted(out - self._mine)  # "what did I say?" is asked as such, never by the user's own name

    @functools.cached_property
    def _mine(self) -> frozenset[str]:
        """The signed-in user's own names: never a value to ask by."""
        return frozenset(self.say.my_names())

    def _person_in(self, tool: Tool, args: Mapping[str, Any], steps: Sequence[Step] = ()) -> tuple[str, str] | None:
        """The first and last name of the person a call is about (a contact it updates, one the
        conversation just added), if any."""
        for q in tool.params:
            value = args.get(q.name)
            if not q.entity or not isinstance(value, str) or self.say.entity_noun(q.entity) not in PERSON_NOUNS:
                continue
            label = self.index.labels.get(q.entity, {}).get(value) or next(
                (rec.get(f) for s in steps if s.result.ok for k, v, rec in s.refs
                 if k == q.entity and v == value for f in ("full_name", "name") if isinstance(rec.get(f), str)), "")
            words = label.split()
            if len(words) == 2 and all(w[:1].isupper() and w.isalpha() for w in words):
                return words[0], words[1]
        return None

    def _query(self, tool: Tool, attempt: int, ask: Ask, slot: str, said: frozenset[str] = frozenset()) -> str | None:
        """Search words that find a live entity the tool returns: its label, or a telling word of it, as
        the phrasing's words for the query `slot` take them; never the label of a thing the conversation
        has named already (`said`: not "Who owns Ana Ortiz? ... Do we have a lead from Ana Ortiz?")."""
        kinds = sorted(tool.produces)
        # search_events: events, not calendars; search_dishes: dishes (a menu item's noun), not restaurants
        kinds = [k for k in kinds if _names_kind(tool.name, k)
                 or _names_kind(tool.name, self.say.entity_noun(k).replace(" ", "_"))] or kinds
        # The signed-in user is "me", never someone to look up by their own name.
        shunned = self._mine | said
        labels = [lab for kind in kinds for v in self.spec.context.ids(kind)
                  if (lab := self.spec.context.label(kind, v)) not in shunned]
        # "Re: Mercury launch plan" is searched for as "Mercury launch plan", as people do; an order of
        # "Razer HD Webcam and 1 more" by the thing it names.
        labels = sorted({_MORE.sub("", _REPLY_PREFIX.sub("", lab)) for lab in labels
                         if isinstance(lab, str) and 2 < len(lab) <= 60})
        labels = [lab for lab in labels if len(lab) > 2]
        # A post or a message is searched by a phrase of it, never by its whole text.
        labels = [lab for lab in labels if not _sentence(lab) or _head_words(lab)]
        # A thing "called" the words is named whole ("Find the meeting called 'Dinner with Victoria'"); things
        # "about" the words, where a title says what each is about, by a subject cut from one ("issues
        # about checkout flow"), never by a whole title ("emails about Retail earnings beat the forecast").
        named = re.search(rf"\b(?:called|named|titled) '\{{{slot}\}}'", ask.text) is not None
        topic = re.search(rf"\babout \{{{slot}\}}", ask.text) is not None \
            and any(getattr(self.server.entities.get(k), "label", None) in _TITLES for k in kinds)
        one = _one_sought(ask) == slot
        if named:  # (not "called 'Interview: Anika Gonzalez (Senior Software Engineer)'": that is searched by the name)
            labels = [lab for lab in labels if not _sentence(lab) and ": " not in lab]
        elif topic:
            labels = [lab for lab in labels if _head_words(lab)]
        if one:  # the whole label of one thing; a search finds the words inside other labels too ('wine': 'Wine night')
            labels = [lab for lab in labels if sum(n for k in kinds for other, n in self.say._counts(k).items()
                                                   if lab.lower() in other) == 1]
        if not labels:
            return None
        label = labels[(self.rng.randrange(len(labels)) + attempt) % len(labels)]
        # a business or a place has a proper name: searched by it, not by its last words ("Angeles Downtown")
        proper = all(getattr(self.server.entities.get(k), "naming", None) == "alone" for k in kinds)
        words = None if named or one else _head_words(label, proper=proper)
        if words and (topic or _sentence(label) or ": " in label or self.rng.random() < 0.5):
            return words
        return label

    def _said(self, calls: Iterable[tuple[Tool, Mapping[str, Any]]]) -> frozenset[str]:
        """The labels of the things these calls name."""
        return frozenset(self.spec.context.label(q.entity, v) for tool, args in calls for q in tool.params
                         if q.entity and isinstance(v := args.get(q.name), str))

    def _keep(self, found: list[Step], step: Step, steps: list[Step]) -> list[Step]:
        base = len(steps)
        for i, d in enumerate(found):
            d.discovery_for = base + len(found)
        # Discovery steps were numbered as if appended in order; sources already point at them.
        return [*found, step]

    def _phrase(self, tool: Tool, steps: list[Step]) -> Ask | None:
        usable_all = [a for a in tool.asks if self._fillable(tool, a, steps)]
        if not usable_all:
            return None
        used = {s.phrase for s in steps}
        usable = [a for a in usable_all if a not in used] or usable_all
        if self.spec.level == "minimal":
            fewest = min(len(a.slots) for a in usable)
            usable = [a for a in usable if len(a.slots) == fewest]
        return self.rng.choice(usable)

    def _fillable(self, tool: Tool, ask: Ask, steps: list[Step]) -> bool:
        """A phrasing can be used when it says every required argument and its entities can be had."""
        covered = ask.covers
        if any(p.required and p.name not in covered for p in tool.params):
            return False
        for slot in ask.slots:
            p = next((p for p in tool.params if p.name == slot), None)
            if p is None:
                return False
            if p.entity and not p.required and not self.ungrounded and not self.spec.context.ids(p.entity) and \
                    not any(k == p.entity for s in steps if s.result.ok for k, _, _ in s.refs):
                return False
        return True

    # ----- entity arguments --------------------------------------------------------------------

    def _entity(self, p: Any, tool: Tool, steps: list[Step], found: list[Step], sess: Session,
                attempt: int) -> tuple[Any, Source] | None:
        kind = p.entity
        spec = tool.parameters.get("properties", {}).get(p.name, {})
        many = spec.get("type") == "array"
        base = len(steps)
        if self.links and not self.ungrounded:
            carried = self._carried(p, tool, steps, found, sess)
            if carried is not None:
                return ([carried[0]] if many else carried[0]), carried[1]
        flows: list[tuple[int, str, Any]] = []
        for i in range(len(steps) - 1, -1, -1):
            s = steps[i]
            if not s.result.ok:
                continue
            for k, v, rec in s.refs:
                if k == kind and self._usable(kind, v):
                    flows.append((i, v, rec))
        for j, d in enumerate(found):
            for k, v, rec in d.refs:
                if k == kind and self._usable(kind, v):
                    flows.append((base + j, v, rec))
        if p.where is not None:  # an output's entity must be one the parameter takes (a credit card, not any account)
            flows = [f for f in flows if sess.satisfies(kind, f[1], p.where)]
        pool_ctx = self._candidates(p) if not self.ungrounded else []
        if p.where is not None:  # as the conversation stands: no cart looked at after it was thrown out
            pool_ctx = [i for i in pool_ctx if sess.satisfies(kind, i, p.where)]
        if tool.name.startswith((*_UNDOING, *_RESTORING)):
            # Nobody makes a thing and undoes it in one conversation ("add an address ... remove
            # the new address", "book a service ... cancel that appointment", "delete the file ...
            # restore it from the trash"): an undoing tool takes what was there before, or the
            # step is left out.
            flows = [f for f in flows if f[1] in self.index.ids.get(kind, ())]
        if tool.name.startswith(_RESTORING):
            ended = self._ended(steps, kind)  # nor brings back what the conversation just ended
            flows = [f for f in flows if f[1] not in ended]
            pool_ctx = [i for i in pool_ctx if i not in ended]
        else:
            # What the conversation has ended (cancelled, deleted, reported, unfollowed) is done
            # with: nobody cancels a booking and then adds it to a trip, reports a place closed
            # for good and asks its opening hours, or unfollows someone and then messages them.
            ended = self._ended(steps, kind)
            if self._ends(tool, kind) or tool.name.startswith(_REPLACING):
                # Nor does it end what it just changed: no link given a new expiry and then revoked,
                # no reservation extended and then collected; nor write over it: no line added to a
                # file that is then replaced whole.
                ended |= {v for s in steps if s.result.ok and not s.tool.read_only for q in s.tool.params
                          if q.entity == kind for v in _strs([s.args.get(q.name)])}
            flows = [f for f in flows if f[1] not in ended]
            pool_ctx = [i for i in pool_ctx if i not in ended]
        rng = self.rng
        graph = self.spec.graph
        linked = [f for f in flows if f[0] < base and graph.label(steps[f[0]].tool.name, tool.name) == EXPLICIT]
        use_flow = bool(flows) and (not pool_ctx or rng.random() < (0.75 if attempt == 0 else 0.5))
        if use_flow:
            pick_from = linked or flows
            src_step = pick_from[0][0] if rng.random() < 0.7 else rng.choice(pick_from)[0]
            candidates = list({f[1]: f for f in pick_from if f[0] == src_step}.values())  # each entity once
            chosen = rng.sample(candidates, min(len(candidates), 2 if many and rng.random() < 0.4 else 1))
            values = [c[1] for c in chosen]
            mode, text = self._flow_ref(kind, values, src_step, steps, found, base)
            value: Any = values if many else values[0]
            return value, Source("flow", src_step, mode, text)
        if self.ungrounded:
            invented = [self._invent(p.description, kind) for _ in range(2 if many and rng.random() < 0.4 else 1)]
            return (invented if many else invented[0]), Source("user", text=self.say.entities(kind, invented))
        if not pool_ctx:
            return None
        if self.spec.level == "minimal" and not many and not self.server.entities[kind].public_id:
            # (an order number is said as it is: nobody looks it up first)
            looked = self._discover(kind, tool, steps, found, sess, p.where)
            if looked is not None:
                return looked
        if attempt and not many:
            # Later attempts walk the context in order from a random start: distinct entities each time.
            start = self._starts.setdefault((tool.name, p.name), rng.randrange(len(pool_ctx)))
            chosen_ids = [pool_ctx[(start + attempt) % len(pool_ctx)]]
        else:
            chosen_ids = rng.sample(pool_ctx, min(len(pool_ctx), 2 if many and rng.random() < 0.4 else 1))
        return (chosen_ids if many else chosen_ids[0]), Source("user")

    def _carried(self, p: Any, tool: Tool, steps: list[Step], found: list[Step],
                 sess: Session) -> tuple[str, Source] | None:
        """Across servers: the entity an earlier output of another server shows, as this tool's server
        knows it (a bridge says they are the same thing), looked up there by the value the two
        agree on (the address or the name read from that output). The user names it by its name."""
        kind = p.entity
        options: list[tuple[int, str, str]] = []
        for i, s in enumerate(steps):
            if not s.result.ok or s.tool.server == tool.server:
                continue
            fields = entity_fields(s.tool)
            for k, v, rec in s.refs:
                if next((rec[f] for f in rec if f in fields), None) != v:
                    continue  # a record of the thing itself, not one that mentions it (a calendar's owner)
                partner = self.links.get((k, kind), {}).get(v)
                if partner is None or not self._usable(kind, partner) or partner not in self.index.labels.get(kind, {}):
                    continue
                if p.where is not None and not sess.satisfies(kind, partner, p.where):
                    continue
                values = [x for x in rec.values() if isinstance(x, str) and x in self._agreed(k, kind, v)]
                options.extend((i, partner, x) for x in values if (i, partner, x) not in options)
        if not options:
            return None
        self.rng.shuffle(options)
        for i, partner, value in sorted(options, key=lambda o: "@" not in o[2]):  # an address finds one person
            source = next(k for k, v, _ in steps[i].refs if self.links.get((k, kind), {}).get(v) == partner)
            columns = [theirs for _, theirs in self.server.agreed(source, kind)]
            lookups = [t for t in self.server.visible_tools
                       if t.server == tool.server and t.name in self.conv.shown and kind in record_fields(t)
                       and t.name != tool.name and lookup_param(t, columns)]
            for d in sorted(lookups, key=lambda t: (not _names_kind(t.name, kind), t.name)):
                query = lookup_param(d, columns)
                assert query is not None
                result = sess.call(d.name, {query: value})
                if result.ok and any(k == kind and e == partner for k, e, _ in extract_entities(d, result.data)):
                    found.append(Step(d, {query: value}, {query: Source("flow", i)}, result, None, asked=False))
                    label = self.index.labels[kind][partner]
                    return partner, Source("flow", len(steps) + len(found) - 1, "label", label)
        return None

    @staticmethod
    def _carries(steps: list[Step]) -> bool:
        """Whether a step takes a value from a step of another server (a lookup by a carried address)."""
        return any(src.kind == "flow" and src.step is not None and src.step < len(steps)
                   and steps[src.step].tool.server != s.tool.server for s in steps for src in s.sources.values())

    def _agreed(self, kind: str, other: str, entity_id: str) -> set[str]:
        """The values an entity shares with the same thing on another server that find it there."""
        row = self.index.rows.get(kind, {}).get(entity_id, {})
        assert isinstance(self.server, Combined)
        # The name, or an address: what one thing is found by (a cuisine finds many restaurants).
        fields = self.server.agreed(kind, other)
        return {row[mine] for n, (mine, _) in enumerate(fields) if isinstance(row.get(mine), str)
                and (n == 0 or "@" in row[mine])}

    def _ends(self, tool: Tool, kind: str) -> bool:
        """Whether a tool ends things of a kind: its name ends that kind (`cancel_booking`,
        `complete_task`; not `remove_tag` for a file, nor `remove_booking_from_trip`)."""
        if tool.read_only or not tool.name.startswith(_ENDING) or "_from_" in tool.name:
            return False  # (taking a thing out of a list, a goal or a trip leaves the thing)
        ek = self.server.entities[kind]
        words = {kind, ek.words.split()[-1], ek.key.removesuffix("_id"), *(("spam",) if kind == "message" else ())}
        return bool(words & set(tool.name.split("_")[1:]))

    def _ended(self, steps: list[Step], kind: str) -> set[str]:
        """The entities of a kind that an earlier write of the conversation ended (`_ends`)."""
        out: set[str] = set()
        for s in steps:
            if not s.result.ok or not (self._ends(s.tool, kind) or _declines(s.tool, s.args)):
                continue
            out.update(v for q in s.tool.params if q.entity == kind for v in _strs([s.args.get(q.name)]))
        return out

    def _candidates(self, p: Any) -> list[str]:
        """The context's entities of a parameter's kind, narrowed by its `where` condition."""
        ids = self.spec.context.ids(p.entity)
        if p.where is None:
            return ids
        # The condition replaces the kind's `live` one (unarchiving takes archived channels):
        # context entities that match it first, then the world's other matching rows.
        rows = _subset(self.server, self.spec.world, p.entity, p.where)
        matching = set(rows)
        return [i for i in ids if i in matching] or list(rows)

    def _param_of(self, tool: Tool, name: str) -> Any:
        return next(p for p in tool.params if p.name == name)

    def _usable(self, kind: str, value: str) -> bool:
        """An entity from an output is usable if it is live, or new in this episode."""
        if value not in self.index.ids.get(kind, ()):
            return True
        return value in self.index.rows.get(kind, {})

    def _flow_ref(self, kind: str, values: list[str], src: int, steps: list[Step], found: list[Step],
                  base: int) -> tuple[str, str | None]:
        """How the user can refer to entities from an output: by label, as 'the new X', or by ID after seeing it."""
        source = steps[src] if src < base else found[src - base]
        if len(values) == 1:
            v = values[0]
            ek = self.server.entities.get(kind)
            if ek is not None and ek.stands_for and (said := self._label_in(source, kind, v)):
                return "label", said  # a participant who just joined: "let Jasmine Patel in"
            if v not in self.index.ids.get(kind, ()):
                # its record in the output, which may say what it is (a file, a folder)
                own = next((r for k, x, r in source.refs if k == kind and x == v), None)
                if ek is not None and ek.noun_from and isinstance(own, Mapping) \
                        and (own_noun := row_noun(ek, own.get(ek.noun_from))) is not None:
                    self.say.nouns[(kind, v)] = own_noun
                noun = self.say.noun_of(kind, v)
                since = [*steps, *found][src + 1:]
                made = {x for s in [*steps, *found] if s.result.ok for k, x, _ in s.refs
                        if k == kind and x not in self.index.ids.get(kind, ())}
                if made - {v}:  # two new ones: neither is "the new one", each may have a name
                    label = self._label_in(source, kind, v)
                    if label:
                        return "label", label
                    dated = self._dated(source, kind, v, noun)  # one meeting of a new series: by its day
                    return ("new", dated) if dated else ("cite", None)
                # Moved or renamed in the conversation, it is no new one: said by its name.
                moved = [x for x in [*steps, *found] if x.tool.name.startswith(("rename", "move")) and x.result.ok]
                label = next(filter(None, (self._label_in(x, k, v) for x in moved  # a path is an item and a file
                                           for k, y, _ in x.refs if y == v)), None)
                if label is not None:
                    return "label", label
                if source.tool.name.startswith("rename"):
                    return "new", f"the renamed {noun}"
                if source.tool.name.startswith("move_"):
                    return "new", f"the {noun} I just moved"
                # A thing made from one of its kind (a forward of an email, a copy of a file): "that email"
                # would be the one the request named, so the new one is said by its name.
                if any(q.entity == kind and source.args.get(q.name) for q in source.tool.params):
                    label = self._label_in(source, kind, v)
                    if label:
                        return "label", label
                    made_as = "my reply" if "reply" in source.tool.name else \
                        "the forwarded copy" if "forward" in source.tool.name else f"the new {noun}"
                    return "new", made_as  # a reply shares its subject: "Throw my reply in the trash"
                # "that reservation" is the one named last: not the new one where another came up since
                named_since = any(x != v for s in since for q in s.tool.params if q.entity == kind
                                  for x in _strs([s.args.get(q.name)])) or \
                    any(k != kind and self.say.noun_of(k, x) == noun for s in since if s.result.ok
                        for k, x, _ in s.refs)  # a flight found since a booking
                # "that deal" of the deal a request made; an account a lead's conversion made on the side is
                # "the new account" (the call's own record is the lead's)
                data = source.result.data
                key = next((k for k in data if k.endswith("_id")), None) if isinstance(data, Mapping) else None
                that = not named_since and (_names_kind(source.tool.name, kind) or (ek is not None and key == ek.key))
                if named_since and (label := self._label_in(source, kind, v)):
                    return "label", label  # another of its noun came up since: said by its name
                return "new", self.rng.choice([f"the new {noun}", f"that {noun}"]) if that else f"the new {noun}"
            label = self._label_in(source, kind, v)
            if label:
                return "label", label
        return "cite", None

    def _dated(self, step: Step, kind: str, value: str, noun: str) -> str | None:
        """One of several new things an output lists under a name they share (the meetings of a series
        it made), said by that name and its day where no other of them falls on it: "the event 'Team
        standup' on April 8"; None where the output does not tell it so."""
        data = step.result.data
        ek = self.server.entities.get(kind)
        if ek is None or not ek.label or not isinstance(data, Mapping):
            return None
        days: dict[str, list[str]] = {}
        name = None
        for k, x, rec in step.refs:
            if k != kind or not isinstance(rec, Mapping):
                continue
            when = next((rec[f] for f in ("start", "starts_at", "date", "scheduled_for")
                         if isinstance(rec.get(f), str) and DAY.match(rec[f][:10])), None)
            if when is None:
                return None
            days.setdefault(when[:10], []).append(x)
            if x == value:
                name = rec.get(ek.label) or data.get(ek.label)
        mine = [d for d, xs in days.items() if value in xs]
        if not isinstance(name, str) or not mine or len(days[mine[0]]) > 1:
            return None
        return f"the {noun} '{name}' on {day(date.fromisoformat(mine[0]))}"

    def _label_in(self, step: Step, kind: str, value: str) -> str | None:
        """The label a person would use for an entity of an output, if the output shows it unambiguously.

        The label must be in the same output record as the ID (a card record that carries only an
        `account_id` does not let anyone resolve "Main Checking"), and no other entity of the kind
        in the output may share it. A kind that stands for a named one (a meeting's participant,
        `EntityKind.stands_for`) is said by that one's name: "let Leo Ramirez in".
        """
        ek = self.server.entities.get(kind)
        labels = self.index.labels.get(kind, {})

        def own(v: str, rec: Mapping[str, Any]) -> str | None:
            """What the output calls it: its label, or the name of whom it stands for (a participant's person)."""
            if labels.get(v) is not None:
                return labels[v]
            if isinstance(rec.get(f"{kind}_name"), str):  # a lead's new "account_name"; a device's new room's
                return rec[f"{kind}_name"]  # "room_name" (its "name" is the device's)
            if ek and ek.label and isinstance(rec.get(ek.label), str):
                return rec[ek.label]
            other = rec.get(ek.stands_for) if ek and ek.stands_for else None
            other_kind = self.index.named_kind(other) if isinstance(other, str) else None
            return self.index.labels[other_kind][other] if other_kind else None

        label = None
        for k, v, rec in step.refs:
            if k != kind or v != value:
                continue
            candidate = own(v, rec)
            if candidate and any(isinstance(x, str) and candidate in x for x in rec.values()):
                label = candidate
                break
        if not label:
            return None
        for k, v, rec in step.refs:
            if k == kind and v != value and own(v, rec) == label:
                return None
        return label

    def _discover(self, kind: str, tool: Tool, steps: list[Step], found: list[Step],
                  sess: Session, where: str | None = None) -> tuple[Any, Source] | None:
        """Minimal level: the user names the entity by label; the assistant looks it up first."""
        tools = [t for t in self.server.visible_tools
                 if t.name in self.conv.shown and t.effect is Effect.READ and kind in t.produces
                 and not any(p.required for p in t.params) and t.name != tool.name]
        if not tools:
            return None
        # Prefer the lookup made for this kind (list_cards for a card) over one that mentions it in passing.
        own = [t for t in tools if _names_kind(t.name, kind)]
        if not own:  # else the kind's lister, or the lookup that outputs fewest other kinds
            lister = self.server.lister(kind)  # (list_contacts for a person, not list_requests)
            own = [t for t in tools if t.name == lister] or \
                [t for t in tools if len(t.produces) == min(len(u.produces) for u in tools)]
        d = self.rng.choice(sorted(own or tools, key=lambda t: t.name))
        # A lookup already made in this episode is read again, not repeated.
        earlier = [(i, s) for i, s in enumerate([*steps, *found]) if s.tool.name == d.name and not s.args
                   and s.result.ok]
        if earlier:
            index, step = earlier[-1]
            result = step.result
        else:
            result = sess.call(d.name, {})
            if not result.ok:
                return None
            step = Step(d, {}, {}, result, None, asked=False)
            index = None
        labelled = []
        for k, v, _ in extract_entities(d, result.data):
            if k == kind and self._usable(kind, v) and v in self.spec.context.ids(kind) \
                    and (where is None or sess.satisfies(kind, v, where)):
                label = self._label_in(step, kind, v)
                if label and (v, label) not in labelled:
                    labelled.append((v, label))
        if not labelled:
            return None
        v, label = self.rng.choice(labelled)
        query = next((p.name for p in d.params if p.name in QUERY_PARAMS), None)
        if index is None and query is not None and not self.server.entities[kind].public_id:  # else said by ID
            # A lookup that can search does: by the name the user said, not by listing everything; a
            # message by a phrase of it, as people search, where that finds it.
            words = (_head_words(label) or _opening(label)) if _sentence(label) else None
            for said in [w for w in (words, label) if w]:
                prior = [(i, s) for i, s in enumerate([*steps, *found]) if s.tool.name == d.name
                         and s.args == {query: said} and s.result.ok]
                if prior:
                    index, step = prior[-1]
                    break
                searched = sess.call(d.name, {query: said})
                if searched.ok and any(k == kind and e == v for k, e, _ in extract_entities(d, searched.data)):
                    step = Step(d, {query: said}, {query: Source("user")}, searched, None, asked=False)
                    break
        if index is None:
            found.append(step)
            index = len(steps) + len(found) - 1
        return v, Source("flow", index, "label", label)

    def _invent(self, description: str, kind: str) -> str:
        """An ID in the documented format that nobody checked: what an ungrounded model writes."""
        ex = example_of(description)
        if isinstance(ex, str):
            m = _ID_SHAPE.match(ex)
            if m:
                return f"{m.group(1)}-{self.rng.randint(10 ** (len(m.group(2)) - 1), 10 ** len(m.group(2)) - 1)}"
        prefix = "".join(w[0] for w in kind.split("_")).upper() or "ID"
        return f"{prefix}{kind[:3].upper()}-{self.rng.randint(10000, 99999)}"

    # ----- sensitive arguments -----------------------------------------------------------------

    def _secret(self, p: Any, tool: Tool, args: dict[str, Any], sess: Session,
                attempt: int) -> tuple[Any, dict[str, Any] | None]:
        props = tool.parameters.get("properties", {})
        if not p.name.startswith(("new_", "confirm_")):
            records = self._secret_records(tool, args, sess)
            matches = [(rec, f) for rec in records for f in rec
                       if _match(p.name, f) and isinstance(rec[f], (str, int)) and not isinstance(rec[f], bool)]
            if matches and (attempt < MAX_TRIES - 1 or self.rng.random() < 0.5):
                rec, f = matches[attempt % len(matches)] if attempt else self.rng.choice(matches)
                return str(rec[f]) if props.get(p.name, {}).get("type") == "string" else rec[f], rec
        return self.values.value(p.name, props.get(p.name, {}), p.description, attempt), None

    def _secret_records(self, tool: Tool, args: dict[str, Any], sess: Session) -> list[dict[str, Any]]:
        """Records of the server's hidden read tools, called with this call's entities."""
        by_kind = {p.entity: args[p.name] for p in tool.params
                   if p.entity and p.name in args and isinstance(args[p.name], str)}
        out: list[dict[str, Any]] = []
        for h in self.server.tools.values():
            if not h.hidden or h.effect is not Effect.READ:
                continue
            call: dict[str, Any] = {}
            for hp in h.params:
                if not hp.required:
                    continue
                if hp.entity and hp.entity in by_kind:
                    call[hp.name] = by_kind[hp.entity]
                else:
                    call = {}
                    break
            if any(hp.required for hp in h.params) and not call:
                continue
            result = sess.call(h.name, call)
            if result.ok:
                out.extend(dict(r) for r in iter_records(result.data))
        return out

    # ----- turns -------------------------------------------------------------------------------

    def _turns(self, steps: list[Step]) -> int:
        """Assign a turn to every step; returns the number of turns."""
        spec = self.spec
        limit = spec.max_turns - (1 if spec.level == "missing" else 0)
        want = min(spec.turns - (1 if spec.level == "missing" else 0), limit)
        turn = 0
        by_target: dict[int, list[int]] = {}
        for i, s in enumerate(steps):
            if s.discovery_for is not None:
                by_target.setdefault(s.discovery_for, []).append(i)
        keep = len(steps)
        for i, s in enumerate(steps):
            if not s.asked:
                continue
            t = turn
            # A set-up step (`needs`) is asked for in a turn of its own, before what it sets up.
            if any(steps[j].asked and steps[j].tool.name in s.tool.needs for j in range(i)):
                t = max(t, max(steps[j].turn for j in range(i) if steps[j].tool.name in s.tool.needs) + 1)
            # Nobody makes a thing and changes it in one breath: a change to "the new" thing a request
            # made comes in a later turn, and none sets again what the making request set ("convert her
            # into a $110000 opportunity ... change the amount on the new deal to $5000", "add 1 of the
            # Mapo Tofu ... change the new cart item to 2").
            makers = {} if s.tool.read_only else {n: m for n in s.sources if (m := self._maker(steps[:i], s, n))}
            if any(set(s.args) - {n} & {**m.tool.defaults, **m.args}.keys() for n, m in makers.items()):
                t = limit
            for name, src in s.sources.items():
                if name in makers and src.mode == "new":
                    t = max(t, makers[name].turn + 1)
                # (a lookup of this step's own is asked in its turn: it delays nothing)
                own = src.step is not None and steps[src.step].discovery_for == i
                if src.kind == "flow" and src.mode == "cite" and src.step is not None and t < limit and not own:
                    t = max(t, steps[src.step].turn + 1)
                    steps[src.step].cite.update(_strs([s.args[name]]))
                if src.kind == "flow" and src.mode == "label" and src.step is not None and not own \
                        and self._named_by_its_result(steps[src.step], s, name):
                    t = max(t, steps[src.step].turn + 1)  # "the card ... ending 4229" once the reply said it
            if t >= limit:
                keep = min(by_target.get(i, [i]) + [i])
                break
            s.turn = turn = t
            for d in by_target.get(i, []):
                steps[d].turn = t
        del steps[keep:]
        # Never leave a step that depends on a dropped or failed one.
        for i, s in enumerate(steps):
            if any(src.kind == "flow" and src.step is not None and (src.step >= len(steps) or steps[src.step].infeasible)
                   for src in s.sources.values()):
                del steps[i:]
                break
        turns = (max((s.turn for s in steps), default=0) + 1) if steps else 0
        while turns < want:
            # Split the busiest turn between two asked steps.
            split = None
            for t in range(turns):
                asked = [i for i, s in enumerate(steps) if s.turn == t and s.asked]
                if len(asked) >= 2:
                    split = asked[1 + self.rng.randrange(len(asked) - 1)]
                    break
            if split is None:
                break
            t0 = steps[split].turn
            for j in range(len(steps)):
                if j >= split or steps[j].discovery_for is not None and steps[j].discovery_for >= split:
                    if steps[j].turn >= t0:
                        steps[j].turn += 1
            turns += 1
        return turns

    # ----- words -------------------------------------------------------------------------------

    def _request(self, s: Step, omit: str | None = None, steps: Sequence[Step] = ()) -> str:
        """The user's words for one step: its phrasing with every slot said as a person says it.

        `omit` is the slot the user leaves vague (the missing information level): the entity is
        named only by its kind ("my card"), and the assistant asks which one. A thing named before by
        its label keeps what tells it apart where the conversation (`steps`) deals with another of
        that label too: not "post it in the chat of the meeting 'Kickoff'" after two meetings 'Kickoff'.
        """
        said: dict[str, str] = {}
        phrase = s.phrase
        if omit is not None and phrase is not None and _left_out(phrase.text, omit) is not None:
            phrase = Ask(_left_out(phrase.text, omit), **phrase.binds)  # "..., first due March 30": no category
        for name in phrase.slots if phrase else ():
            src = s.sources.get(name, Source("user"))
            p = self._param_of(s.tool, name)
            value = s.args.get(name)
            if name == omit and p.entity:  # "a friend", "one of the businesses": the noun fits the one meant
                one = value[0] if isinstance(value, list) and len(value) == 1 else value
                said[name] = self.words.vague(self.say.noun_of(p.entity, one) if isinstance(one, str)
                                              else self.say.entity_noun(p.entity))
            elif src.kind == "flow" and src.mode == "new" and src.text:
                said[name] = src.text
            elif src.kind == "flow" and src.mode == "label" and src.text and p.entity:
                one = value[0] if isinstance(value, list) and len(value) == 1 else value
                # (renamed by an earlier turn, it is said by its new name: not "when is the Hold event?")
                label = (self.say.renamed_to(p.entity, one) or src.text) if isinstance(one, str) else src.text
                said[name] = self.say.entity(p.entity, one, label=label) if isinstance(one, str) else src.text
                if isinstance(one, str) and label == src.text and self._twin_named(p.entity, one, steps):
                    apart = self.say.entity(p.entity, one)
                    said[name] = said[name] if one in apart else apart
            elif src.text:
                said[name] = src.text
        assert phrase is not None, "only a step planned from a phrasing is asked for"
        return self._in_app(s.tool, s.args, self.say.request(s.tool, phrase, s.args, said), phrase.text)

    def _twin_named(self, kind: str, value: str, steps: Sequence[Step]) -> bool:
        """Whether the steps name another thing of the kind under this one's label."""
        labels = self.index.labels.get(kind, {})
        label = labels.get(value)
        return isinstance(label, str) and any(
            x != value and labels.get(x) == label for st in steps for q in st.tool.params if q.entity == kind
            for x in _strs([st.args.get(q.name)]))

    def _in_app(self, tool: Tool, args: Mapping[str, Any], text: str, template: str) -> str:
        """A request that could mean either of two servers of a combined view says which one: for
        a tool both have ("Change Benjamin Ortiz's phone number to ... in the Email app": the CRM
        has contacts too), or a write on a thing both know ("Remove Felix Peterson in the Email app")."""
        if not isinstance(self.server, Combined):
            return text
        base = tool.name.removeprefix(f"{tool.server}_")
        shared = base != tool.name and any(base in m.tools for m in self.server.members)
        known_twice = not tool.read_only and any(
            p.entity and v in pairs for p in tool.params for v in _strs([args.get(p.name)])
            for (kind, _), pairs in self.links.items() if kind == p.entity)
        if not (shared or known_twice):
            return text
        title = next(m.title for m in self.server.members if m.name == tool.server)
        where = f"in the {title}" if title.lower().endswith("app") else f"in the {title} app"
        if re.search(r"\}[.!?]?$", template.rstrip()):  # "... and note: Now at Initech": the app first
            return f"{where[:1].upper()}{where[1:]}, {_lower_first(text)}"
        body = text.rstrip()
        end = body[-1] if body[-1:] in ".?!" else ""
        return f"{body[:len(body) - len(end)]} {where}{end or '.'}"

    def _reply(self, s: Step, opener: bool = True, first: bool = True, steps: Sequence[Step] = ()) -> str:
        """What the assistant tells the user after a step: the tool's reply wording, or the results; a
        thing made earlier in the conversation (of `steps`) is said by what its making output called it.
        An account after another (not `first`) names what it is about: "it" would be the thing before."""
        if s.infeasible:
            return self.words.failure(s.result.error or {})
        if s.tool.replies:
            said = {}
            for name, src in s.sources.items():
                p = self._param_of(s.tool, name)
                value = s.args.get(name)
                if src.kind == "flow" and src.mode == "label" and src.text and p.entity and isinstance(value, str):
                    said[name] = self.say.entity(p.entity, value, label=src.text)
                elif src.kind == "flow" and src.mode == "new" and p.entity and isinstance(value, str):
                    # Made in this conversation: named by what the result calls it, never by a raw ID,
                    # else as the request said it ("the item I just moved").
                    label = self._label_in(s, p.entity, value)
                    if label is None and src.step is not None and src.step < len(steps):
                        label = self._label_in(steps[src.step], p.entity, value)
                    plain = src.text if src.text and src.text.startswith("the ") else \
                        f"the new {self.say.entity_noun(p.entity)}"
                    said[name] = self.say.entity(p.entity, value, label=label) if label else plain
            if not s.tool.read_only and s.result.ok:
                said.update({name: moved for name, moved in self._moved_said(s).items() if name not in said})
            fitting = _fitting_replies(s.tool, s.args, s.result.data, s.phrase.text if s.phrase is not None else "")
            if not first:
                fitting = [r for r in fitting if not _PRONOUN_OPENS.match(r.text)] or fitting
            if fitting:
                reply = self.rng.choice(fitting)
                text = self.say.reply(s.tool, reply.text, s.args, s.result.data, said)
                # A later turn that quotes an ID must have seen it; one with a name is said by its name.
                absent = [c for c in sorted(s.cite) if c not in text and self.say.said_by_id(c)]
                if not absent:
                    return text
                if not s.tool.read_only:
                    return f"{text} For reference: {', '.join(absent)}."
        if not s.tool.read_only:
            return self.words.pick(["Done.", "All set.", "That's done."])
        quoted = sorted(c for c in s.cite if self.say.said_by_id(c))  # a name is said by its name
        # what a listing that found nothing kept to, by name and days: "no payments to Tomas Miller since March 1"
        named: list[str] = []
        if found_nothing(s.result.data):
            named = [f"{kept_to(p, s.args)} {said}" for p in s.tool.params
                     if p.entity and isinstance(s.args.get(p.name), str)
                     and (said := self.say.entity(p.entity, s.args[p.name])) != "me"]
            named += filter(None, [window_said(s.args, (EPOCH + timedelta(seconds=self.advance)).date())])
        return self.say.to_user(self.words.summary(s.tool, s.result.data, quoted, opener=opener, args=s.args,
                                                   asked=s.phrase.text if s.phrase is not None else "", named=named))

    def _write(self, steps: list[Step], n_turns: int) -> list[PlannedTurn]:
        spec = self.spec
        words = self.words
        rng = self.rng
        out: list[PlannedTurn] = []
        question: tuple[str, Any, bool, str | None] | None = None
        omit_step = None
        if spec.level == "missing":
            question, omit_step = self._omit(steps)
            self.decided.kind = "clarification" if question is not None else "multi_turn"
            if question is None:
                self.decided.level = "complete"
        failures = sum(s.infeasible for s in steps)
        mistake: tuple[int, tuple[str, dict[str, Any], ToolResult, str | None]] | None = None
        if not self.ungrounded and rng.random() < spec.recovery and (failures + 1) / (len(steps) + 1) <= 0.3:
            cands = [i for i, s in enumerate(steps) if s.asked and not s.infeasible and i != omit_step]
            if cands:
                at = rng.choice(cands)
                made = self._mistake(steps[at], steps)
                if made is not None:
                    mistake = (at, made)
        # Where the wrong attempt goes: before the target, or before its lookups for `label_as_id`.
        mistake_pos = None
        if mistake is not None:
            at, (kind, _, _, _) = mistake
            lookups = [i for i, s in enumerate(steps) if s.discovery_for == at]
            mistake_pos = min(lookups) if kind == "label_as_id" and lookups else at
        nouns = {ek.words.split()[0] for ek in self.server.entities.values()}  # "order ORD-10012 arrived"
        for t in range(n_turns):
            in_turn = [i for i, s in enumerate(steps) if s.turn == t]
            asked = [i for i in in_turn if steps[i].asked]
            omit = question[0] if question is not None and question[3] is None else None
            requests = []
            for i in asked:  # each as the steps before it left things: an event moved is told by its new day
                self.say.current = _changed_before(steps, i)
                requests.append(self._request(steps[i], omit=omit if i == omit_step else None, steps=steps))
            names_first = [steps[i].phrase is not None and steps[i].phrase.text.startswith("{")
                           and r.split(maxsplit=1)[0].lower() not in _ARTICLES | nouns for i, r in zip(asked, requests)]
            user = words.user_turn(requests or ["Can you help me with that?"], t, names_first)
            if question is not None and t == 0:
                assert omit_step is not None
                self.say.current = _changed_before(steps, omit_step)  # (the thing as its request says it)
                param, value, secret, hidden_kind = question
                entity = self._param(steps[omit_step], param).entity  # type: ignore[index]
                # (which friend, or which business: the noun fits the one meant)
                noun = self.say.noun_of(entity, value) if hidden_kind is None and isinstance(value, str) \
                    else self.say.entity_noun(hidden_kind or entity)
                key = self.server.entities[hidden_kind or entity].key
                left_out = hidden_kind is None and _left_out(steps[omit_step].phrase.text, param) is not None
                q = words.question(noun, hidden=hidden_kind is not None, left_out=left_out,
                                   id_word="ID" if key.endswith("_id") or key == "id" else key.replace("_", " "),
                                   thing=spoken_to_user(self.say.entity(entity, value)) if hidden_kind is not None else None)
                out.append(PlannedTurn(user, [Move(text=q)], question=True))
                answer = value if hidden_kind is not None else self.say.entity(entity, value)
                user = words.answer(answer)
            self.say.current = {}  # (the replies name things as they did)
            moves: list[Move] = []
            pos = 0
            while pos < len(in_turn):
                k = in_turn[pos]
                s = steps[k]
                if mistake is not None and k == mistake_pos:
                    at, (kind, call, result, text) = mistake
                    target = steps[at]
                    moves.append(Move(text=words.preface(write=not target.tool.read_only),
                                      calls=[Call(target.tool.name, call, mistake=kind)]))
                    self.expected.append(result.text())
                    self.decided.strategies.append("another_tool" if kind == "label_as_id" else "retry")
                    mistake_pos = None
                    if k == at:
                        moves.append(Move(text=text, calls=[Call(s.tool.name, s.args, binds=_binds(s))]))
                        self.expected.append(s.result.text())
                        pos += 1
                        continue
                    # The lookup that recovers comes next, with the explanation.
                    moves.append(Move(text=text, calls=[Call(s.tool.name, s.args, binds=_binds(s))]))
                    self.expected.append(s.result.text())
                    pos += 1
                    continue
                group = [k]
                if s.asked and not s.infeasible and s.tool.effect is Effect.READ:
                    while pos + len(group) < len(in_turn) and rng.random() < 0.4:
                        j = in_turn[pos + len(group)]
                        nxt = steps[j]
                        if nxt.infeasible or nxt.tool.effect is not Effect.READ or j == mistake_pos or \
                                any(src.kind == "flow" and src.step in group for src in nxt.sources.values()):
                            break
                        group.append(j)
                calls = [Call(steps[g].tool.name, steps[g].args, binds=_binds(steps[g])) for g in group]
                write = any(not steps[g].tool.read_only for g in group)
                moves.append(Move(text=words.preface(write=write) if rng.random() < 0.5 else None, calls=calls))
                self.expected.extend(steps[g].result.text() for g in group)
                if s.infeasible and self.ungrounded and s.result.code == "not_found":
                    retry = self._reinvent(s)
                    if retry is not None:
                        moves.append(Move(text=words.retry(s.result.code), calls=[Call(s.tool.name, retry)]))
                        self.expected.append(None)  # computed on the real session, not planned
                        self.decided.strategies.append("retry")
                if s.infeasible:
                    self.decided.strategies.append("give_up")
                pos += len(group)
            # The reply says a thing moved to a new ID by its new name ("... holds the file '2026 goals.md'");
            # one renamed in place keeps its old name until the reply has said the renaming.
            self._note_renames((steps[k] for k in in_turn), moved_only=True)
            reply: list[str] = []
            for k in in_turn:
                if steps[k].asked:  # "Here's what I found:" opens the first account of a reply, not each
                    reply.append(self._reply(steps[k], opener=not any(steps[j].tool.read_only for j in in_turn
                                                                     if j < k and steps[j].asked),
                                             first=not reply, steps=steps))
            today = (EPOCH + timedelta(seconds=self.advance)).date()
            moves.append(Move(text=today_said(joined(reply), today) if reply else words.pick(["Done.", "All set."])))
            out.append(PlannedTurn(user, moves))
            self._note_renames(steps[k] for k in in_turn)
        return out

    def _named_by_its_result(self, source: Step, s: Step, name: str) -> bool:
        """Whether an argument names a thing the source step made under a name the user did not give
        it (a replacement card "ending 4229"): the user learns that name from the reply, so says it
        in a later turn. A name the request gave ("copy it as 'notes copy.txt'") is known at once, as
        are the people a thing stands for ("let Jasmine Patel in")."""
        kind = self._param(s, name).entity
        ek = self.server.entities.get(kind) if kind else None
        if ek is None or ek.stands_for:
            return False
        given = " ".join(str(v) for v in _strs(list(source.args.values()))).lower()
        return any(v not in self.index.ids.get(kind, ()) and (label := self._label_in(source, kind, v))
                   and label.lower() not in given for v in _strs([s.args.get(name)]))

    def _maker(self, before: Sequence[Step], s: Step, name: str) -> Step | None:
        """The earlier write that made what a step's argument names, if the conversation made it."""
        kind = self._param(s, name).entity
        new = {v for v in _strs([s.args.get(name)]) if kind and v not in self.index.ids.get(kind, ())}
        return next((x for x in before if new and not x.tool.read_only and x.result.ok
                     and new & {v for _, v, _ in x.refs}), None)

    def _moved_said(self, s: Step) -> dict[str, str]:
        """The things a write moved elsewhere (an email archived, a message moved to another folder), said
        by name alone: not by where they were ("the email 'Re: Team lunch' in the Sent folder ... is in the
        archive now")."""
        out: dict[str, str] = {}
        for p in s.tool.params:
            value = s.args.get(p.name)
            if not p.entity or not isinstance(value, str):
                continue
            key = self.server.entities[p.entity].key if p.entity in self.server.entities else None
            row = self.index.every.get(p.entity, {}).get(value)
            label = self.index.labels.get(p.entity, {}).get(value)
            rec = next((r for k, v, r in s.refs if k == p.entity and v == value
                        and isinstance(r, Mapping) and r.get(key) == value), None)
            if row is None or rec is None or not isinstance(label, str):
                continue
            if any(c.endswith("_id") and c != key and c in rec and rec[c] != row[c] for c in row):
                out[p.name] = self.say.entity(p.entity, value, label=label)
        return out

    def _note_renames(self, done: Iterable[Step], moved_only: bool = False) -> None:
        """What the turn's writes renamed ("LH 982 FRA to BOS on April 4" moved to March 26) is said
        by its new name from the next turn on; `moved_only`: only what now has an ID of its own
        (a file at its new path)."""
        for s in done:
            if s.tool.read_only or not s.result.ok:
                continue
            fields = entity_fields(s.tool)
            for kind, value, rec in s.refs:
                ek = self.server.entities.get(kind)
                if not moved_only and ek is not None and ek.label and isinstance(rec, Mapping) \
                        and rec.get(ek.key) == value and value not in self.index.ids.get(kind, ()) \
                        and isinstance(rec.get(ek.label), str):
                    self.say.made_twin(kind, rec[ek.label])  # a copy named as the original: neither is by name alone
                if next((rec[f] for f in rec if f in fields and rec[f] is not None), None) != value \
                        or ek is not None and rec.get(ek.key, value) != value:
                    continue  # a record that lists it (a scene's changed devices, a copy's source), not its own
                new = rec.get(ek.label) if ek is not None and ek.label and isinstance(rec, Mapping) else None
                if isinstance(new, str) and new != self.index.labels.get(kind, {}).get(value) \
                        and not (moved_only and value in self.index.ids.get(kind, ())):
                    self.say.renamed[(kind, value)] = new

    def _reinvent(self, s: Step) -> dict[str, Any] | None:
        """Ungrounded recovery: the same call with other invented IDs."""
        retry = dict(s.args)
        changed = False
        for name, src in s.sources.items():
            p = self._param(s, name)
            if src.kind == "user" and p.entity and isinstance(retry.get(name), str):
                retry[name] = self._invent(p.description, p.entity)
                changed = True
        return retry if changed else None

    def _param(self, s: Step, name: str) -> Any:
        return next(p for p in s.tool.params if p.name == name)

    def _omit(self, steps: list[Step]) -> tuple[tuple[str, Any, bool, str | None] | None, int | None]:
        """Missing level: the user names an entity of the first turn only by its kind ("my card").

        Only an entity the user would name (not one from an earlier result, not a secret) is left
        vague, so the question asks for exactly the missing thing and the answer names it.
        """
        options = []
        for i, s in enumerate(steps):
            if s.turn != 0 or not s.asked or s.infeasible or s.phrase is None:
                continue
            for p in s.tool.params:
                src = s.sources.get(p.name)
                if not p.required or not p.entity or p.sensitive or p.name not in s.phrase.slots:
                    continue
                if src is None or src.kind != "user" or not isinstance(s.args.get(p.name), str):
                    continue
                if not _vague_fits(s.phrase.text, p.name):
                    continue
                if s.args[p.name] in self.say.entity(p.entity, s.args[p.name]):
                    continue  # a thing known only by its ID ("version VER-10007") is not asked for vaguely
                if any(t.turn == 0 and t.result.ok and p.entity in t.tool.produces and s.args[p.name] not in
                       {v for k, v, _ in t.refs if k == p.entity} for t in steps[:i]):
                    continue  # "what versions of README are there? ... since one of the versions": one of those
                options.append((i, p))
        if not options:
            return None, None
        first, p = self.rng.choice(options)
        s = steps[first]
        if self.spec.hide_lookup:
            label = self.say.label(p.entity, s.args[p.name])
            others = [(i, q.name) for i, t in enumerate(steps) for q in t.tool.params if q.entity == p.entity
                      and (i, q.name) != (first, p.name) and t.sources.get(q.name) is not None
                      and t.sources[q.name].kind == "user"]
            # (not where another thing of the kind is named by label: with no lookup, nobody could find it;
            # nor a thing whose name is its ID, the Inbox folder 'inbox' or the Desktop folder '/Desktop':
            # nobody asks for that ID)
            if label and re.sub(r"\W", "", label).lower() != re.sub(r"\W", "", str(s.args[p.name])).lower() \
                    and not others \
                    and self._hide_lookups(p.entity, steps):
                # The user names it by its label; with the lookups hidden, the assistant asks for the ID.
                s.sources[p.name] = Source("user", text=self.say.entity(p.entity, s.args[p.name], label=label))
                return (p.name, s.args[p.name], p.sensitive, p.entity), first
        return (p.name, s.args[p.name], p.sensitive, None), first

    def _hide_lookups(self, kind: str, steps: list[Step]) -> bool:
        used = {s.tool.name for s in steps}
        lookups = [t.name for t in self.server.visible_tools
                   if t.name in self.conv.shown and t.effect is Effect.READ and kind in t.produces
                   and not any(p.entity == kind and p.required for p in t.params)]
        if not lookups or used & set(lookups):
            return False  # (a lookup the task calls could find it: "I can't look it up" would be untrue)
        self.conv.hide(lookups)
        return True

    def _mistake(self, s: Step, steps: list[Step]) -> tuple[str, dict[str, Any], ToolResult, str | None] | None:
        """A wrong first attempt that the framework rejects before the tool runs (no state change)."""
        props = s.tool.parameters.get("properties", {})
        options: list[tuple[str, dict[str, Any]]] = []
        for name, value in s.args.items():
            spec = props.get(name, {})
            if spec.get("type") in ("number", "integer") and not isinstance(value, bool):
                options.append(("wrong_type", {**s.args, name: self.rng.choice([f"${render_value(value)}",
                                                                                    f"{render_value(value)} dollars"
                                                                                    if "amount" in name or "price" in name
                                                                                    else f"{render_value(value)} units"])}))
            if "enum" in spec and isinstance(value, str) and value.swapcase() != value:
                options.append(("bad_enum", {**s.args, name: value.replace("_", " ").title()}))
        required = [p.name for p in s.tool.params if p.required and p.name in s.args]
        if required:
            drop = self.rng.choice(required)
            options.append(("missing_required", {k: v for k, v in s.args.items() if k != drop}))
        if s.tool.effect is Effect.READ:
            for name, src in s.sources.items():
                if src.kind == "flow" and src.mode == "label" and src.text and src.step is not None \
                        and steps[src.step].discovery_for is not None:
                    options.append(("label_as_id", {**s.args, name: src.text}))
        if not options:
            return None
        kind, call = self.rng.choice(options)
        with self.conv.session.trial() as probe:
            # Schema errors do not depend on the state, and a read tool cannot change it.
            result = probe.call(s.tool.name, call)
        if result.ok:
            return None
        text = self.words.retry(result.code or "error", another=kind == "label_as_id")
        return kind, call, result, text


@functools.lru_cache(maxsize=4096)
def _subset(server: Server, world: int, kind_name: str, where: str) -> tuple[str, ...]:
    """The rows of a world's template that an entity subset takes (templates never change: cached)."""
    kind = server.entities[kind_name]
    db = next(db for _, kinds, db in server.parts(world) if kind_name in kinds)
    return tuple(str(r[0]) for r in db.execute(
        f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {where} ORDER BY "{kind.key}"', clock_params(EPOCH)))


def _cohere(args: dict[str, Any], sources: dict[str, Source]) -> None:
    """Values that must agree with each other: a new person's e-mail address is made from their name."""
    for key in ("email", "email_address"):
        if key not in args or sources.get(key, Source("user")).kind != "user" or not isinstance(args[key], str):
            continue
        first, last = args.get("first_name"), args.get("last_name")
        if not (isinstance(first, str) and isinstance(last, str)) and isinstance(args.get("name"), str) \
                and len(args["name"].split()) == 2:
            first, last = args["name"].split()
        if not (isinstance(first, str) and isinstance(last, str)):
            continue
        company = args.get("company")
        domain = (re.sub(r"[^a-z0-9]", "", company.lower()) + ".com") if isinstance(company, str) and company \
            else args[key].rsplit("@", 1)[-1]
        args[key] = _address(first, last, domain)


def _address(first: str, last: str, domain: str) -> str:
    """A person's e-mail address as made from their name: 'james.white@fastmail.com'."""
    return f"{re.sub(r'[^a-z0-9.]', '', f'{first}.{last}'.lower())}@{domain}"


# A reply that opens on "it" ("Done: it now lives at ...") is about the thing just asked for.
_PRONOUN_OPENS = re.compile(r"(?:Done: )?(?:it|its|it's)\b", re.I)


def joined(parts: Sequence[str]) -> str:
    """Accounts said one after another; one that ends in lines quoted from a file or a message
    is set apart from the next by a blank line, so the quote does not run into the next account.
    "Done:" opens the first account that has it, not each ("Done: the email ... Done: the draft ..."),
    and a later account drops an "All set." or "Done." that opens it. An account the text already says is
    not said again ("It has 1 like and no comments yet." needs no "No comments yet." after it), nor a
    sentence with a figure whose words one sentence before it holds in their order ("Your balance is $812.30."
    after "Added $300.50 from Chase; your balance is now $812.30."), nor the first clause of such a sentence
    ("Your balance is $812.30, and you can send $200 more." says "You can send $200 more."), nor a first clause
    whose measures and names one sentence has said ("Route set to Starbucks: 4.3 miles, about 12 minutes." then
    "Starbucks is 4.3 miles away, about 12 minutes; you'd arrive around 9:12 AM" says "You'd arrive ...")."""
    text = parts[0] if parts else ""
    opened = text.startswith("Done: ")
    for before, part in zip(parts, parts[1:]):
        part = re.sub(r"^(?:All set|Done|Okay)[.!] (?=\S)", "", part)
        if part.rstrip(".").lower() in text.lower() or _restated(part, text):
            continue
        head, sep, rest = part.partition(", and ")
        if sep and _restated(head, text):  # "Your balance is $383.72, and you can send ..." -> "You can send ..."
            part = rest[:1].upper() + rest[1:]
        head, sep, rest = part.partition("; ")
        if sep and _measures_said(head, text):  # "Starbucks is 4.3 miles away, about 12 minutes; you'd arrive ..."
            part = rest[:1].upper() + rest[1:]
        if opened and re.match(r"Done: (?:[a-z]+(?:'[a-z]+)? |[A-Z'/$#])", part):  # "Done: the ...", "Done: Anna ..."
            part = part[6].upper() + part[7:]
        opened = opened or part.startswith("Done: ")
        if "\n" not in before and not re.search(r"[.!?…][')\"]?$", text):
            text += "."  # "Your signature now reads: Cheers" ends before the next account
        text += ("\n\n" if "\n" in before else " ") + part
    return text


_TOKEN = re.compile(r"\$?\d[\d,]*(?:\.\d+)?|[a-z]+(?:'[a-z]+)?")


def _restated(part: str, text: str) -> bool:
    """Whether `part` is one sentence with a figure whose words one sentence of `text` holds in their order."""
    if "\n" in part or re.search(r"[.!?;:]\s", part.strip()):
        return False
    words = _TOKEN.findall(part.lower())
    if not any(w[-1].isdigit() for w in words):
        return False
    for sentence in re.split(r"(?<=[.!?])\s+", text.lower()):
        held = iter(_TOKEN.findall(sentence))
        if all(w in held for w in words):
            return True
    return False


_MEASURE = re.compile(r"\$?\d[\d,]*(?:\.\d+)? [a-z]+")


def _measures_said(clause: str, text: str) -> bool:
    """Whether one sentence of `text` already says a clause's two or more measures ("4.3 miles", "12 minutes")
    and the names in it: the clause says again what that sentence said."""
    measures = set(_MEASURE.findall(clause))
    names = set(re.findall(r"\b[A-Z][\w'&.-]*", clause))
    return len(measures) >= 2 and any(measures <= set(_MEASURE.findall(sentence)) and all(n in sentence for n in names)
                                      for sentence in re.split(r"(?<=[.!?])\s+", text))


def _sentence(label: str) -> bool:
    """Whether a label is a text someone wrote (a post, a message), not a name."""
    return len(label.split()) > 8 or bool(re.search(r"[.!?](?:\s|$)", label)) and len(label.split()) > 3


# Two words that modify a noun together: "Remote Control Car" is searched whole, never "Control Car".
_COMPOUND_MODIFIERS = {"remote control", "french press", "cast iron", "stainless steel", "ice cream", "hot water",
                       "noise cancelling", "high speed", "first aid", "air fryer"}


def _one_sought(ask: Ask) -> str | None:
    """The search slot of a phrasing that asks for one thing by its words ("Find the payment for '{query}'",
    "the issue titled '{query}'"), else None."""
    found = re.search(r"\bthe \w+ (?:called|named|titled|for) '\{(\w+)\}'", ask.text)
    return found.group(1) if found is not None and found.group(1) in QUERY_PARAMS else None


def _head_words(label: str, proper: bool = False) -> str | None:
    """The words a person searches a long name by: its head noun phrase, before any size, number
    or comma ("Patio String Lights 48 ft" -> "String Lights", "Area Rug 5 x 7 ft, Indigo" -> "Area
    Rug"); a company by its name without "Inc." ("Palantir Technologies"); a title with a kind
    before a colon is searched by what follows ("Interview: Anika Gonzalez
    (Senior Software Engineer)" -> "Anika Gonzalez"); None where the name is short already or has
    no such phrase. A `proper` name (of a business, a place) is searched whole but for its "Inc."."""
    tokens = label.split()
    if len(tokens) > 2 and tokens[-1].rstrip(".,").lower() in _CORPORATE:  # "Palantir Technologies Inc."
        return " ".join(tokens[:-1]).rstrip(",&").rstrip(" ,&")
    corporate = next((i for i, t in enumerate(tokens[:-1]) if i and t.rstrip(".,").lower() == "inc"), None)
    if corporate is not None:  # "Berkshire Hathaway Inc. Class B": the name before its "Inc."
        return " ".join(tokens[:corporate]).rstrip(",&").rstrip(" ,&")
    if proper:
        return None
    if len(tokens) > 2 and tokens[-1] in _FUNDS:  # a fund by its whole name, not "Market ETF"
        return None
    kind, colon, rest = label.partition(": ")
    if colon and len(kind.split()) <= 2 and not any(ch.isdigit() for ch in kind):
        named = re.match(r"[A-Za-z][A-Za-z'&-]*(?: [A-Za-z][A-Za-z'&-]*){0,2}(?=$| \(| -| @)", rest)
        if named and named.group(0).lower() not in _STOP:
            return named.group(0)
    lead: list[str] = []
    for token in label.split():
        if any(ch.isdigit() for ch in token) or token.startswith(("(", "-", "/", "&", "@", "#")):
            if lead:
                break
            continue
        lead.append(token.rstrip(",.?!:;"))
        if token.endswith((",", ".", "?", "!", ":", ";")):
            break
    while lead and lead[-1].lower() in _COLOURS:  # a variant's colour names no thing: "Controller", not "Midnight Black"
        lead.pop()
    if len(tokens) <= 2 or len(lead) < 2:
        return None
    # a model's name before its number and the thing after it ("Black Diamond Spot 400 Headlamp"): the
    # whole name, for its last words alone are no thing ("a Diamond Spot")
    named = len(lead) == 3 and len(tokens) == 5 and tokens[:3] == lead and any(ch.isdigit() for ch in tokens[3]) \
        and tokens[4].isalpha() and tokens[4][:1].isupper() and tokens[4].lower() not in _COLOURS
    tail = lead if named else lead[-3:] if " ".join(lead[-3:-1]).lower() in _COMPOUND_MODIFIERS else lead[-2:]
    if any(w.lower() in _STOP or not re.fullmatch(r"[A-Za-z][A-Za-z'-]{2,}", w) for w in tail):
        return None
    return " ".join(tail)


# What ends a company's name and is left out of a search for it ("Palantir Technologies Inc.").
_CORPORATE = {"inc", "corporation", "corp", "co", "company", "ltd", "plc", "holdings"}
_FUNDS = {"ETF", "Trust", "Fund"}

_REPLY_PREFIX = re.compile(r"^(?:(?:re|fwd?|aw)\s*:\s*)+", re.IGNORECASE)
_MORE = re.compile(r" and \d+ more$")


def _has_values(tool: Tool, name: str) -> bool:
    """Whether the tool gives candidate values for a parameter: a search it words as food a place "does"
    ("sushi") is drawn from them, not from the names of the things it finds ("does Eggs & Co.")."""
    return any(name in (n.strip() for n in key.split(",")) for key in tool.values)


def _fitting_replies(tool: Tool, args: Mapping[str, Any], data: Any = None, asked: str = "") -> list[Ask]:
    """The replies for this call: those whose bindings it holds (defaults counted; `result.` ones
    by its result), or, where no bound reply fits, the unbound ones. A bound reply is the specific
    case ("Unassigned ..." for `assignee_id=None`), an unbound one the general case ("Assigned ...
    to {assignee_id}.").

    A reply that says a result field this result lacks ("arriving {result.arrival}" with no
    destination set), or an argument the call left out, does not fit; a read with no fitting reply
    is read out from its result.
    Without `data` (what a call may be told, before it runs) every reply that fits the call counts.
    A read asked a question (`asked`) is answered by the replies that say what it asks."""
    effective = {**tool.defaults, **args}
    sayable = [r for r in tool.replies if all(effective.get(slot) is not None for slot in r.slots
                                              if not slot.startswith("result."))]
    on_args = [r for r in sayable if any(not n.startswith("result.") for n in r.binds)
               and r.agrees(effective, data)]
    on_result = [r for r in sayable if r.binds and all(n.startswith("result.") for n in r.binds)
                 and r.agrees(effective, data)]
    unbound = [reply for reply in sayable if not reply.binds]
    # The specific case first: a reply bound on the arguments, then one bound on what the result
    # holds ("Nothing comes back ..." for a refund of 0), then the general ones. Before the call runs
    # a result's binding may or may not hold: those replies are among the possible ones.
    # Of the replies bound on the arguments, one also bound on what the result holds is the more specific
    # ("No store has it in stock" of an availability check that found none).
    specific = [r for r in on_args if any(n.startswith("result.") for n in r.binds)]
    chosen = ((on_args or unbound) + on_result) if data is None else (specific or on_args or on_result or unbound)
    if data is None:
        return chosen
    if tool.read_only and _empty_listing(data):
        # a listing that found nothing says so ("Nothing came up"), not "0 min in 0 entries", unless a reply
        # is made for what it holds ("The two files are the same, line for line")
        return on_result
    present = [reply for reply in chosen if all(result_field(data, slot[len("result."):]) is not None
                                                for slot in reply.slots if slot.startswith("result."))]
    words = _asked_words(asked) if tool.read_only else set()
    # "... and $0.00 to your credit": a reply that reports a zero amount is said only where no other fits
    # (or where the question asks for that amount: "How much store credit do I have?").
    def zero_said(reply: Ask, asked_too: bool) -> bool:
        return any(slot.startswith("result.") and _amount(slot.rsplit(".", 1)[-1]) and result_field(data, slot[7:]) == 0
                   and (asked_too or not _named(slot, words)) for slot in reply.slots)

    telling = [reply for reply in present if not zero_said(reply, False)]
    if tool.read_only and words:
        # A zero the question names is said only where nothing else answers it: "what's the refund?"
        # is "$412.00 comes back to your card", not "0 points come back to you".
        nonzero = _answering([reply for reply in telling if not zero_said(reply, True)], words)
        if any(_named(slot, words) for reply in nonzero for slot in reply.slots):
            return nonzero
        return _answering(telling, words)
    if tool.read_only:
        return telling
    return telling or present or chosen


def _asked_words(asked: str) -> set[str]:
    return {w for w in words_in(asked) if len(w) > 3}


def _named(slot: str, words: set[str]) -> bool:
    """Whether a question's words name a reply's `result.` field ("store credit": `store_credit`)."""
    return slot.startswith("result.") and any(a.startswith(w) or w.startswith(a) for w in
                                              slot[len("result."):].replace(".", "_").split("_") if len(w) > 3
                                              for a in words)


def _answering(replies: list[Ask], words: set[str]) -> list[Ask]:
    """The replies of a read that answer the question asked, given its words: those that say the most
    of the fields it names and the fewest it does not; where it names none ("Show me my account
    details"), those that say the most. A reply bound on a field that its own words name says that
    field ("no reminder has gone out" for `result.reminders_sent=0`)."""
    def fields(reply: Ask) -> set[str]:
        own = _asked_words(reply.text)
        return {slot for slot in reply.slots if slot.startswith("result.")} | \
            {name for name in reply.binds if _named(name, own)}

    scored = [(sum(_named(f, words) for f in fields(r)), len(fields(r)), r) for r in replies]
    best = max((said for said, _, _ in scored), default=0)
    if best == 0:
        most = max((n for _, n, _ in scored), default=0)
        return [r for _, n, r in scored if n == most]
    fewest = min(n - said for said, n, _ in scored if said == best)
    return [r for said, n, r in scored if said == best and n - said == fewest]


def _amount(field: str) -> bool:
    """Whether a result field is an amount a reply reports (dollars, points), which at 0 says nothing."""
    return is_money(field) or "points" in field.split("_")


def _opening(text: str) -> str:
    """A message's first words, past a mention or an emoji code: what a search for it types."""
    tokens = text.split()
    while tokens and tokens[0].startswith(("@", ":")):
        tokens.pop(0)
    return " ".join(tokens[:4]).rstrip(",.?!:;")


def _entity_ids(tool: Tool, args: Mapping[str, Any]) -> set[str]:
    return {v for p in tool.params if p.entity for v in _strs([args.get(p.name)])}


def _cells(sess: Session) -> set[tuple[Any, ...]]:
    """What the conversation has changed so far, cell by cell: an updated column of a row, or a
    row made or removed."""
    out: set[tuple[Any, ...]] = set()
    for change in sess.diff():
        row = (change.server, change.table, tuple(sorted(change.key.items())))
        if change.op == "update":
            out.update((*row, column) for column in change.columns)
        else:
            out.add((*row, change.op))
    return out


def _names_kind(tool_name: str, kind: str) -> bool:
    """Whether a tool's name names the kind: list_cards for a card, list_categories for a category."""
    plural = kind[:-1] + "ies" if kind.endswith("y") else kind + "s"
    return kind in tool_name or plural in tool_name or kind.rstrip("s") in tool_name.removeprefix("list_")


def _binds(step: Step) -> dict[str, Any]:
    return dict(step.phrase.binds) if step.phrase is not None else {}


_ARTICLES = {"the", "my", "a", "an", "your", "this", "that", "one", "some"}


def _changed_before(steps: Sequence[Step], at: int) -> dict[str, dict[str, dict[str, Any]]]:
    """The things the steps before step `at` changed, as they left them (`Step.after`)."""
    return next((s.after for s in reversed(steps[:at]) if s.after is not None), {})


def _declines(tool: Tool, args: Mapping[str, Any]) -> bool:
    """Whether a write turns a thing down ("decline the event", "reject the offer") or reports it
    gone ("closed for good"): nothing more is done with it, no reminder for the declined event."""
    return not tool.read_only and any(isinstance(v, str) and v in _DECLINING for v in args.values())


_DECLINING = frozenset({"declined", "decline", "rejected", "reject", "permanently_closed"})


def _reports_gone(args: Mapping[str, Any]) -> bool:
    """Whether a call reports a thing gone for good (a place closed permanently)."""
    return "permanently_closed" in args.values()


def _empty_listing(data: Any) -> bool:
    """A listing that found nothing: its lists are empty and it names no one thing (a file without
    tags is a file, not an empty listing)."""
    return isinstance(data, Mapping) and found_nothing(data) and not any(k in LABELS for k in data)


def _arbitrary(args: Mapping[str, Any], sources: Mapping[str, Source], props: Mapping[str, Any]) -> bool:
    """Whether a call carries a value the planner chose freely (a price, a window, a device), which
    another try may choose otherwise; a choice among a few states ("open disputes") is a question."""
    for name, value in args.items():
        source = sources.get(name)
        if source is None or source.kind != "user" or isinstance(value, bool):
            continue
        if "enum" not in props.get(name, {}):
            return True
    return False


def _left_out(text: str, slot: str) -> str | None:
    """The phrasing without the few words that say a slot, where they stand apart (", under
    {category_id}," or "{account_id} under {category_id}."): a person leaves such a value out
    rather than say it vaguely ("under a category"); None where the words do not stand apart, or
    say where the request goes ("put $60 toward {goal_id}"), which nobody leaves out."""
    m = re.search(rf"(?:, (?:[a-z]+ )?(?:under|from|in|using|via)|(?<=\}}) (?:under|from|using|via)) \{{{slot}\}}"
                  rf"(?=[,.;]|$)", text)  # "{path} in {folder}" is where it goes, not a detail
    return text[:m.start()] + text[m.end():] if m else None


def _vague_fits(text: str, slot: str) -> bool:
    """Whether a slot can be said vaguely ("one of the cards", "a card"): not after a possessive
    or "is" ("my {x} order", "my new home is {x}"), nor after its own noun ("the lead {x}": "the lead
    one of the leads"), nor before the noun it modifies ("{x} order")."""
    at = text.find("{" + slot + "}")
    if at >= 0 and text[at + len(slot) + 2:].startswith("'s"):
        return False  # "one of the channels's topic"
    two = text[:at].split()[-2:] if at >= 0 else []
    if len(two) == 2 and two[0].lower() in ("the", "a", "an", "this", "that") and two[1].isalpha():
        return False
    before = text[:at].split()[-1:] if at >= 0 else []
    after = text[at + len(slot) + 2:].split()[:1] if at >= 0 else []
    if before and before[0].lower() in ("my", "your", "our", "their", "is", "are", "was", "were", "the", "a", "an", "of"):
        return False
    return not (after and after[0].isalpha() and after[0].islower() and after[0] not in _JOINS)


_JOINS = {"to", "from", "in", "on", "at", "for", "with", "and", "or", "then", "so", "as", "by", "into", "off", "out",
          "back", "please", "now", "today", "instead", "again", "up", "down", "over", "about", "before", "after",
          "if", "until", "that", "which", "because", "but", "is", "isn't", "has", "a", "the", "any", "anymore",
          "too", "yet", "here", "there", "every", "each", "once", "right", "when", "where", "why", "how", "what"}


_ABSTAIN_TRIES = 8  # draws of a request the missing tool would have served
_REDRAWS = 6  # draws of a value that is not one the call already names
_UNDOING = ("delete_", "cancel_", "remove_", "withdraw_", "revoke_", "unsubscribe", "leave_", "decline_", "unfollow",
            "unblock", "unwatch", "unstar", "unpin", "discard_", "release_", "return_", "close_", "archive_",
            "complete_", "void_")
_ENDING = ("delete_", "cancel_", "remove_", "withdraw_", "revoke_", "decline_", "discard_", "report_", "trash_",
           "block_", "reject_", "end_", "close_", "complete_", "leave_", "void_", "archive_", "unfollow_",
           "buy_")  # (a listing bought is sold: nobody makes an offer on it and then buys it outright)
_REPLACING = ("write_file", "overwrite_")  # tools that put a new whole in place of a thing's content
_RESTORING = ("restore", "undelete", "unarchive", "reopen", "unblock", "recover", "mark_not_spam", "untrash")
# Label columns that say what a thing is about (a meeting's title, an email's subject), not who or what it is.
_TITLES = frozenset({"title", "subject", "topic"})
_STOP = {"with", "from", "that", "this", "your", "about", "into", "over", "the", "and", "for"}
_COLOURS = {"black", "white", "gray", "grey", "silver", "gold", "red", "blue", "green", "pink", "purple", "teal", "navy",
            "midnight", "space", "rose", "charcoal", "beige", "brown", "orange", "yellow", "ivory", "graphite"}


def _match(param: str, field: str) -> bool:
    if param == field:
        return True
    if param.endswith("_" + field) or field.endswith("_" + param):
        return True
    return field in _ALIASES.get(param, ())


def _fits(value: Any, spec: dict[str, Any]) -> bool:
    t = spec.get("type")
    if "enum" in spec:
        return value in spec["enum"]
    if t == "string":
        return isinstance(value, str)
    if t == "integer":
        return isinstance(value, int)
    if t == "number":
        return isinstance(value, (int, float))
    return True


def _strs(values: Any) -> list[str]:
    out = []
    for v in values:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, str))
    return out


_PERIODS = {"daily": timedelta(days=1), "weekly": timedelta(weeks=1), "biweekly": timedelta(weeks=2),
            "monthly": timedelta(days=30), "quarterly": timedelta(days=91), "yearly": timedelta(days=365),
            "annually": timedelta(days=365)}


def _round_window(args: dict[str, Any], sources: Mapping[str, Source]) -> None:
    """A window over several days that a reading asks about runs from the morning of its first day
    to the evening of its last ("between March 18 at 9:00 AM and March 23 at 5:00 PM"), not from
    12:30 PM to 9:00 AM."""
    for lo, hi in (("start", "end"), ("after", "before"), ("since", "until")):
        a, b = args.get(lo), args.get(hi)
        if not (isinstance(a, str) and isinstance(b, str) and _CLOCKED.match(a) and _CLOCKED.match(b)) \
                or a[:10] == b[:10] or any(sources.get(k, Source("user")).kind != "user" for k in (lo, hi)):
            continue
        args[lo] = a[:11] + "09:00" + a[16:]
        args[hi] = b[:11] + "17:00" + b[16:]


_CLOCKED = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")


def _order_pairs(args: dict[str, Any]) -> None:
    """Keep ranges the right way round: start before end, min below max."""
    for lo, hi in (("start_date", "end_date"), ("start", "end"), ("since", "until"), ("after", "before"),
                   ("min_amount", "max_amount"), ("min_price", "max_price"), ("min_rating", "max_rating"),
                   ("from_date", "to_date"), ("check_in", "check_out"), ("closing_after", "closing_before")):
        a, b = args.get(lo), args.get(hi)
        if a is not None and b is not None and type(a) is type(b) and a > b:
            args[lo], args[hi] = b, a
        elif isinstance(a, str) and a == b and re.fullmatch(r"\d{4}-\d{2}-\d{2}", a):
            # "between January 30 and January 30" is no range: a week from the start
            args[hi] = (date.fromisoformat(a) + timedelta(days=7)).isoformat()
    # A series runs for a few of its periods: no monthly payment that ends three days after it starts.
    period = _PERIODS.get(str(args.get("frequency", "")).lower())
    first = next((args[k] for k in ("send_on", "start_date", "start", "next_due_date") if isinstance(args.get(k), str)),
                 None)
    end = args.get("end_date")
    if period and isinstance(first, str) and isinstance(end, str) and DAY.match(first[:10]) and DAY.match(end[:10]):
        start = date.fromisoformat(first[:10])
        if date.fromisoformat(end[:10]) < start + 3 * period:
            args["end_date"] = (start + 6 * period).isoformat()


