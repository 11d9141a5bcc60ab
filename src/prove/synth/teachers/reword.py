"""The reword teacher: the programmatic plan, worded by a model (`--teacher reword:MODEL@BASE_URL`).

The programmatic teacher plans and plays every conversation exactly as it does alone: the same
calls, the same results, the same state. Only the words change: each user turn the plan yields
and each final assistant text (a move without calls) goes to an OpenAI-compatible model, which
writes it again in natural, varied words. Nothing the data means may change with them, so every
rewrite is checked here before it is used:

- every value the original text carries for a call of the conversation from that turn on (user
  turns) or for the calls and results of the turn (replies) must still stand in it, in a form the
  faithfulness check accepts (`phrasing.renderings`, an entity's ID or label, the same matching
  as `faithful.py`): IDs, names, quoted text, amounts, dates, enum words;
- an option the words fix (a bound argument or a boolean: "without the attachments", "don't
  block the sender", "mark it unread") must still be named by the same words, and a negation near
  them ("without", "don't", "not") must neither appear nor vanish;
- the rewrite adds no ID and no number the original does not carry, and an assistant's question
  stays a question.

A rejected rewrite is asked again with what was wrong with it, up to `tries` times; after that, or
when the endpoint fails, the programmatic words stay (`reword_fallback`). Counts are in `stats`.
The transport is the OpenAI teacher's client (bounded concurrency, retries, the response cache
keyed by the request), so the same seed and cache give a byte-identical dataset.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...env import Tool
from ...env.asks import bool_words, words_in
from ..contract import Conversation, Move, entity_values
from ..faithful import leaves, said
from ..phrasing import renderings
from .openai import OpenAITeacher, TeacherError
from .programmatic import ProgrammaticTeacher

__all__ = ["Keep", "Needs", "Option", "RewordTeacher", "needs_of", "problems"]

REWORD_MARK = "You rewrite one message of a conversation"
# ID-shaped tokens ('ACC-10001', 'MSG-10146'): a rewrite may not invent one.
_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{3,}\b")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_TOKEN = re.compile(r"[0-9A-Za-z'\u2019]+")
# Words that, shortly before the words naming an option, turn it round.
_NEGATIONS = frozenset({"not", "no", "without", "never", "dont", "doesnt", "didnt", "wont", "cant", "shouldnt",
                        "isnt", "arent", "nor", "neither", "skip", "exclude", "excluding", "omit", "minus"})
_WINDOW = 3
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)


@dataclass(frozen=True)
class Keep:
    """A value the text must still carry: as the original writes it, and every form that traces it."""

    shown: str
    forms: frozenset[str]


@dataclass(frozen=True)
class Option:
    """An argument the words fix: the words of the original that name it, and whether they are negated."""

    param: str
    value: Any
    words: frozenset[str]
    negated: bool
    phrase: str


@dataclass(frozen=True)
class Needs:
    """What a rewrite of one text must keep (see the module docstring)."""

    keep: tuple[Keep, ...] = ()
    options: tuple[Option, ...] = ()
    bound: tuple[tuple[str, Any], ...] = ()  # every bound argument, shown to the model
    question: bool = False
    numbers: frozenset[str] = frozenset()  # numbers a rewrite may say
    ids: frozenset[str] = frozenset()  # IDs a rewrite may say


# A call as the check sees it: its tool, its arguments and the values its phrasing bound.
CallView = tuple[Tool, Mapping[str, Any], Mapping[str, Any]]
Labels = Callable[[str, str], Iterable[str]]


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """The words of a text as `asks.words_in` reads them ("don't" -> 'dont'), with their spans."""
    out = []
    for m in _TOKEN.finditer(text):
        out.extend((w, m.start(), m.end()) for w in words_in(m.group().replace("\u2019", "'")))
    return out


def _numbers(text: str) -> set[str]:
    """The numbers a text says, normalised ('1,250.00' -> '1250'), IDs aside."""
    out = set()
    for n in _NUMBER.findall(_ID.sub(" ", text)):
        n = n.replace(",", "")
        if re.fullmatch(r"\d+\.\d+", n):
            n = n.rstrip("0").rstrip(".")
        if n.isdigit():
            n = str(int(n))
        out.add(n)
    return out


def _stem(a: str, b: str) -> bool:
    """The same word, give or take an ending ('attachment'/'attachments', 'decline'/'declined')."""
    if a == b:
        return True
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= max(4, min(len(a), len(b)) - 2)


def _naming(words: list[str], names: Iterable[str]) -> list[int]:
    names = list(names)
    return [i for i, w in enumerate(words) if any(_stem(w, n) for n in names)]


def _negated(words: list[str], at: list[int]) -> bool:
    return any(w in _NEGATIONS for i in at for w in words[max(0, i - _WINDOW):i])


def _shown(original: str, form: str) -> str:
    """`form` as the original writes it (its case)."""
    at = original.lower().find(form)
    return original[at:at + len(form)] if at >= 0 else form


def needs_of(original: str, calls: Iterable[CallView], results: Iterable[Any] = (), labels: Labels | None = None,
             question: bool = False, later: Iterable[CallView] = ()) -> Needs:
    """What a rewrite of `original` must keep, given the calls it asks for or reports on and their results.

    `later` holds calls of later turns: a value of theirs that the text says must stay too (the
    faithfulness check traces a value to any earlier user turn), but their bindings are not shown.
    """
    low = original.lower()
    tokens = _tokens(original)
    candidates: list[frozenset[str]] = []
    options: list[Option] = []
    bound: dict[str, Any] = {}
    for (tool, args, binds), this_turn in [*((c, True) for c in calls), *((c, False) for c in later)]:
        if this_turn:
            bound.update(binds)
        params = {p.name: p for p in tool.params}
        for name, value in args.items():
            p = params.get(name)
            if isinstance(value, bool) or name in binds:
                option = _option(name, value, original, tokens)
                if option is not None and all((o.param, o.value) != (name, value) for o in options):
                    options.append(option)
                if isinstance(value, bool):
                    continue
            if p is not None and p.entity:
                for v in entity_values(value):
                    found = {v.lower()} | {lab.lower() for lab in (labels(p.entity, v) if labels else ()) if lab}
                    candidates.append(frozenset(found))
                continue
            candidates.extend(frozenset(renderings(leaf)) for leaf in leaves(value))
    for data in results:
        candidates.extend(frozenset(renderings(leaf)) for leaf in leaves(data))
    keep: dict[str, Keep] = {}
    numbers = _numbers(original)
    for forms in candidates:
        for f in forms:
            numbers |= _numbers(f)
        present = sorted((f for f in forms if said(low, f)), key=len, reverse=True)
        if present and not any(k.forms & forms for k in keep.values()):
            keep[present[0]] = Keep(_shown(original, present[0]), forms)
    ids = set(_ID.findall(original))
    for i in ids:
        if not any(i.lower() in k.forms for k in keep.values()):
            keep[i.lower()] = Keep(i, frozenset({i.lower()}))
    return Needs(tuple(keep.values()), tuple(options), tuple(sorted(bound.items(), key=lambda kv: kv[0])), question,
                 frozenset(numbers), frozenset(ids))


def _option(name: str, value: Any, original: str, tokens: list[tuple[str, int, int]]) -> Option | None:
    """The words of the original that name an option's value, if it names it at all."""
    words = [w for w, _, _ in tokens]
    if isinstance(value, bool):
        names = {w for w in bool_words(name) if w in words}
    elif isinstance(value, str):
        names = {w for w in words_in(value.replace("_", " ").replace("-", " ")) if len(w) >= 3}
        names = {words[i] for i in _naming(words, names)}
    else:
        return None
    if not names:
        return None
    at = _naming(words, names)
    first = at[0]
    phrase = original[tokens[max(0, first - 2)][1]:tokens[min(len(tokens) - 1, first + 2)][2]]
    return Option(name, value, frozenset(names), _negated(words, at), phrase)


def problems(needs: Needs, original: str, rewrite: str) -> list[str]:
    """What is wrong with a rewrite (empty: nothing)."""
    text = rewrite.strip()
    if not text:
        return ["it is empty"]
    if len(text) > max(3 * len(original), len(original) + 400):
        return ["it is much longer than the original"]
    low = text.lower()
    found = []
    for k in needs.keep:
        if not any(said(low, f) for f in k.forms):
            found.append(f"it drops {k.shown!r}")
    words = [w for w, _, _ in _tokens(text)]
    for o in needs.options:
        at = _naming(words, o.words)
        if not at:
            found.append(f"it no longer says {o.phrase!r} ({o.param}={_value(o.value)})")
        elif _negated(words, at) != o.negated:
            found.append(f"it turns {o.phrase!r} round ({o.param}={_value(o.value)})")
    for i in sorted(set(_ID.findall(text)) - needs.ids):
        found.append(f"it adds {i}, which the original does not name")
    for n in sorted(_numbers(text) - needs.numbers):
        found.append(f"it adds the number {n}")
    if needs.question and "?" not in text:
        found.append("it is no longer a question")
    return found


def _value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _clean(content: Any) -> str:
    """The rewrite in a model's answer: without a reasoning block, or quotes around the whole of it."""
    text = _THINK.sub("", content).strip() if isinstance(content, str) else ""
    if len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1]:
        text = text[1:-1].strip()
    return text


class RewordTeacher:
    """See the module docstring. `tries`: rewrites asked per text; the rest configures the transport."""

    is_async = True

    def __init__(self, model: str, base_url: str, *, cache_dir: Path | None = None, tries: int = 3,
                 **transport: Any) -> None:
        transport.pop("classify", None)  # the graph stays the programmatic teacher's
        self.inner = ProgrammaticTeacher()
        self.client = OpenAITeacher(model, base_url, cache_dir=cache_dir, classify=False, **transport)
        self.id = f"reword:{model}"
        self.tries = max(1, int(tries))
        self.stats: Counter[str] = self.client.stats

    def classifier(self) -> None:
        return None

    def advance(self, conv: Conversation) -> int:
        return self.inner.advance(conv)

    async def continuation(self, conv: Conversation) -> str:
        return await self.inner.continuation(conv)

    async def aclose(self) -> None:
        await self.inner.aclose()
        await self.client.aclose()

    async def query(self, conv: Conversation) -> str | None:
        text = await self.inner.query(conv)
        if text is None:
            return None
        turn = conv.turn + 1
        needs = needs_of(text, _planned(self.inner, conv, turn, turn + 1), labels=_labels(conv),
                         later=_planned(self.inner, conv, turn + 1, None))
        return await self._reword(conv, "user", text, needs)

    async def assistant(self, conv: Conversation, feedback: str | None = None) -> Move:
        move = await self.inner.assistant(conv, feedback)
        if move.calls or not move.text:
            return move
        done = conv.turn_calls()
        calls = [(t, e.arguments, conv.decided.bindings.get(e.id, {})) for e in done
                 if e.mistake is None and isinstance(e.arguments, dict) and (t := conv.server.tools.get(e.name))]
        needs = needs_of(move.text, calls, [e.result.data for e in done if e.result.ok], _labels(conv),
                         question=move.text.rstrip().endswith("?"))
        return Move(text=await self._reword(conv, "reply", move.text, needs))

    # ----- the rewrite ----------------------------------------------------------------------------

    async def _reword(self, conv: Conversation, role: str, original: str, needs: Needs) -> str:
        messages = self._prompt(conv, role, original, needs)
        for attempt in range(self.tries):
            payload: dict[str, Any] = {"model": self.client.model, "messages": messages,
                                       "temperature": self.client.temperature, "max_tokens": self.client.max_tokens}
            if attempt:
                payload["seed"] = attempt
            try:
                message = await self.client.complete(payload)
            except TeacherError:
                self.stats["reword_errors"] += 1
                break
            text = _clean(message.get("content"))
            wrong = problems(needs, original, text)
            if not wrong:
                self.stats[f"{role}_rewritten"] += 1
                conv.decided.wording.append(f"{role}:rewritten")
                return text
            self.stats["reword_rejected"] += 1
            messages = [*messages, {"role": "assistant", "content": text},
                        {"role": "user", "content": f"That rewrite was rejected: {'; '.join(wrong)}. "
                                                    "Rewrite the original message again."}]
        self.stats["reword_fallback"] += 1
        self.stats[f"{role}_fallback"] += 1
        conv.decided.wording.append(f"{role}:programmatic")
        return original

    def _prompt(self, conv: Conversation, role: str, original: str, needs: Needs) -> list[dict[str, Any]]:
        server = conv.server
        parts = [f"{REWORD_MARK} between a user and the assistant of {server.title}: {server.description}"]
        if role == "user":
            style = f" in a {conv.decided.persona} style" if conv.decided.persona else ""
            parts.append(f"The message is the user's. Write it again as the user would{style}: vary the words and "
                         "the order of the sentences, keep every request in it and add none.")
        else:
            parts.append("The message is the assistant's answer after its tool calls. Write it again in natural, "
                         "friendly words: keep every fact it reports and add none.")
        if needs.keep:
            parts.append("Keep these values exactly as they are written (the same characters):\n"
                         + "\n".join(f"- {k.shown}" for k in needs.keep))
        named = {o.param: o for o in needs.options}
        settings = [f"- {name} = {_value(value)}: the message says \"{named[name].phrase}\"; keep that meaning"
                    if name in named else f"- {name} = {_value(value)}: say nothing that changes it"
                    for name, value in needs.bound]
        settings += [f"- {o.param} = {_value(o.value)}: the message says \"{o.phrase}\"; keep that meaning"
                     for o in needs.options if o.param not in dict(needs.bound)]
        if settings:
            parts.append("These settings follow from its words and must not change:\n" + "\n".join(settings))
        if needs.question:
            parts.append("It asks a question: keep it a question.")
        parts.append("Answer with the rewritten message only: no quotes, no notes.")
        return [{"role": "system", "content": "\n\n".join(parts)}, {"role": "user", "content": original}]


def _labels(conv: Conversation) -> Labels:
    index, context = conv.index, conv.spec.context

    def labels(kind: str, value: str) -> list[str]:
        return [lab for lab in (index.labels.get(kind, {}).get(value), context.label(kind, value))
                if isinstance(lab, str)]

    return labels


def _planned(inner: ProgrammaticTeacher, conv: Conversation, start: int, stop: int | None) -> list[CallView]:
    """The calls the plan makes in user turns `start` to `stop` (exclusive)."""
    out: list[CallView] = []
    for call in inner.planned_calls(conv, start, stop):
        tool = conv.server.tools.get(call.name) if isinstance(call.name, str) else None
        if tool is not None and isinstance(call.arguments, dict):
            out.append((tool, call.arguments, call.binds))
    return out
