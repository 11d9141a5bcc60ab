"""The model's tool calls, from OpenAI `tool_calls`, Hermes/Qwen `<tool_call>` blocks or plain JSON.

The one call parser of PROVE: the reward scores what it reads, the rollout runs what it reads.
Every function here is linear in the length of its input (no backtracking pattern: model output
is adversarial input) and never raises, and the work on one input is bounded (`ParseLimits`):
reading stops after `max_calls` calls, `max_blocks` tags or `max_chars` characters, and the calls
opened past that point are counted (`Calls.excess`) and scored as malformed calls, never dropped.

A call whose name cannot be read is kept as a call with `name=None`, and one whose arguments are
not a JSON object as a call with `args=None`: both count as calls (for efficiency and precision)
and fail validity, as a malformed call should.

A call's outcome (`ok`) comes from the trajectory itself: the tool message answering it (or the
`<tool_response>` block after it) is a failure when its body has one of the error shapes of
`Outcomes`, a success otherwise, and unknown (`None`) when nothing answered it.

A call's `turn` is the index of the user turn it was made in (the user messages seen before
it), or `None` when the input shows no user turns at all (a bare completion).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DEFAULT_LIMITS", "Block", "Call", "Calls", "Outcomes", "ParseLimits", "hermes_blocks", "outcome", "outcome_reader",
    "parse_completion", "parse_json", "parse_messages", "parse_text", "parse_trajectory", "read_arguments",
]


@dataclass(slots=True)
class Call:
    """One call the model made, as the reward sees it."""

    name: str | None
    args: dict[str, Any] | None
    ok: bool | None = None
    turn: int | None = None


class Calls(list):  # type: ignore[type-arg]
    """The calls read from one input, and `excess`: how many more it opened past the reading caps.

    Those were not read (that is what bounds the work on adversarial output); each is scored as
    a malformed call, so a policy that floods calls is penalised for every one of them.
    """

    __slots__ = ("excess",)

    def __init__(self, calls: Iterable[Call] = (), excess: int = 0) -> None:
        super().__init__(calls)
        self.excess = excess


class ParseLimits(BaseModel):
    """How much of one input is read: model output is adversarial, so the parser's work is bounded.

    Reading stops at the first cap reached; the calls opened after that point (`<tool_call>`
    tags, `"name"` keys of JSON, entries of `tool_calls`) are counted in `Calls.excess`, not read.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_calls: int = Field(256, ge=1, description="calls read from one completion or trajectory")
    max_blocks: int = Field(1024, ge=1, description="tags (calls, responses, user turns, reasoning) read "
                                                     "from one text")
    max_chars: int = Field(262_144, ge=1, description="characters read from one text")


DEFAULT_LIMITS = ParseLimits()


# ----- outcomes ------------------------------------------------------------------------------------

class Outcomes(BaseModel):
    """Which tool results are failures: the framework's error body and the other common shapes.

    A result is a failure when it is a JSON object with one of `keys` holding a non-empty string
    or an object, and no other keys than `detail_keys` beside it (`{"error": {...}}`, `{"error":
    "text"}`, `{"error": "text", "code": 404}`; a record that merely has an `error` field among its
    data is not); when one of `flags` holds its value (`{"isError": true}`, `{"status":
    "error"}`); or when its text starts with one of `prefixes`, ignoring case (`"Error during
    execution: ..."`, as BFCL's executor answers).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    keys: tuple[str, ...] = ("error",)
    detail_keys: tuple[str, ...] = ("code", "message", "hint", "details", "status", "type")
    flags: dict[str, Any] = Field(default_factory=lambda: {"isError": True, "is_error": True, "success": False,
                                                           "status": "error"})
    prefixes: tuple[str, ...] = ("error:", "error during execution", "traceback (most recent call last)")


_DEFAULT_OUTCOMES = Outcomes()


def outcome_reader(rules: Outcomes | None = None) -> Callable[[Any], bool]:
    """A function telling whether a tool result body (text, content parts or decoded JSON) is a success."""
    rules = rules or _DEFAULT_OUTCOMES
    keys = rules.keys
    allowed = frozenset(rules.keys) | frozenset(rules.detail_keys)
    flags = tuple(rules.flags.items())
    prefixes = tuple(p.casefold() for p in rules.prefixes)
    # A JSON text is decoded only when one of these appears in it (most results have none).
    needles = tuple(f'"{k}"' for k in (*keys, *rules.flags))
    longest = max((len(p) for p in prefixes), default=0)

    def failed_object(obj: Mapping[str, Any]) -> bool:
        for k in keys:
            v = obj.get(k)
            if (isinstance(v, str) and v.strip()) or (isinstance(v, dict) and v):
                if all(key in allowed for key in obj):
                    return True
        for k, v in flags:
            if k in obj:
                got = obj[k]
                if got is v or (type(got) is type(v) and got == v):
                    return True
        return False

    def ok(content: Any) -> bool:
        if isinstance(content, str):
            if content[:1] == "{" or content[:longest + 64].lstrip()[:1] == "{":
                for n in needles:
                    if n in content:
                        break
                else:
                    return True  # no key that could make it a failure
                try:
                    value = json.loads(content)
                except (ValueError, RecursionError):
                    return True
                return not (isinstance(value, dict) and failed_object(value))
            head = content[:longest + 64].lstrip()
            return not (prefixes and head[:longest].casefold().startswith(prefixes))
        if isinstance(content, list):
            return ok(_text(content))
        if isinstance(content, dict):
            return not failed_object(content)
        return True

    return ok


outcome = outcome_reader()
"""Whether a tool result body is a success, with the default `Outcomes`."""


# ----- helpers -------------------------------------------------------------------------------------

_decoder = json.JSONDecoder()
_raw_decode = _decoder.raw_decode
_scan = _decoder.scan_once
_WS = " \t\n\r"


def _loads(text: str) -> Any:
    """`json.loads` for the hot path: most argument strings have no surrounding whitespace, so the
    scanner is called directly (it raises `StopIteration` where no value starts at 0)."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        return _decoder.decode(text)  # leading whitespace, or no JSON at all (raises)
    if end != len(text) and text[end:].strip():
        raise ValueError(f"extra data after the JSON value at {end}")
    return value


def _text(content: Any) -> str:
    """Message content as text (OpenAI content parts joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def read_arguments(raw: Any) -> dict[str, Any] | None:
    """Arguments as a dict: a dict, JSON object text (decoded twice if encoded twice), empty text or
    None (no arguments); None for anything else."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = _loads(raw)
        except (ValueError, RecursionError):
            return {} if not raw.strip() else None
        if isinstance(value, str):
            return read_arguments(value)
        return value if isinstance(value, dict) else None
    if raw is None:
        return {}
    return None


def _from_object(obj: Any, turn: int | None) -> Call:
    """A call from a decoded JSON object: {"name", "arguments"|"parameters"} or OpenAI's {"function": ...}."""
    if not isinstance(obj, dict):
        return Call(None, None, None, turn)
    fn = obj.get("function")
    if isinstance(fn, dict):
        obj = fn
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        name = None
    raw = obj["arguments"] if "arguments" in obj else obj.get("parameters")
    return Call(name, read_arguments(raw), None, turn)


def _from_block(body: str, turn: int | None) -> Call:
    body = body.strip()
    if body[:1] != "{":
        return Call(None, None, None, turn)  # only an object can be a call
    try:
        value, end = _raw_decode(body)
    except (ValueError, RecursionError):
        return Call(None, None, None, turn)
    return _from_object(value, turn) if end == len(body) else Call(None, None, None, turn)


# ----- Hermes / Qwen text --------------------------------------------------------------------------

# Literal alternatives only: one left-to-right pass; closing tags are found with `str.find`
# between one opener and the next.
_OPEN = re.compile(r"<think>|<tool_call>|<tool_response>|<\|im_start\|>user")
_CLOSE = {"<tool_call>": "</tool_call>", "<tool_response>": "</tool_response>"}


class Block(NamedTuple):
    """A structural element of Hermes text outside `<think>`: its tag, its span and its body's span.

    `tag` is `<tool_call>`, `<tool_response>` or `<|im_start|>user` (a ChatML user turn); a block
    ends at its closing tag, else where the next block (or `<think>`) starts, else at the end of
    the text.
    """

    tag: str
    start: int
    end: int
    body_start: int
    body_end: int

    def body(self, text: str) -> str:
        return text[self.body_start:self.body_end]


def _marks(text: str, stop: int, max_calls: int | None = None,
           max_blocks: int | None = None) -> tuple[list[tuple[int, int, str]], int]:
    """(start, end, tag) of the opening tags outside `<think>` in `text[:stop]`, and where reading
    stopped: at `stop`, or at the opener of the call past `max_calls` (or of the block past
    `max_blocks`). A `<think>` is kept as a zero-width mark (it ends a block left open before it)."""
    marks: list[tuple[int, int, str]] = []
    skip = 0
    n_calls = 0
    for m in _OPEN.finditer(text, 0, stop):
        start = m.start()
        if start < skip:
            continue
        if max_blocks is not None and len(marks) >= max_blocks:
            return marks, start
        tag = m.group()
        if tag == "<think>":
            close = text.find("</think>", m.end(), stop)
            skip = stop if close < 0 else close + 8
            marks.append((start, start, tag))
            continue
        if tag == "<tool_call>":
            if max_calls is not None and n_calls >= max_calls:
                return marks, start
            n_calls += 1
        marks.append((start, m.end(), tag))
    return marks, stop


def hermes_blocks(text: str, limits: ParseLimits | None = None) -> list[Block]:
    """The blocks of a Hermes text in order; reasoning in `<think>` (an unclosed one runs to the end) is skipped.

    With `limits`, only the blocks before the caps are read (`ParseLimits`); without, all of them.
    """
    if limits is None:
        marks, cut = _marks(text, len(text))
    else:
        marks, cut = _marks(text, min(len(text), limits.max_chars), limits.max_calls, limits.max_blocks)
    out: list[Block] = []
    n = len(marks)
    for k in range(n):
        start, end, tag = marks[k]
        if tag == "<think>":
            continue
        limit = marks[k + 1][0] if k + 1 < n else cut
        closer = _CLOSE.get(tag)
        close = text.find(closer, end, limit) if closer is not None else -1
        if close >= 0:
            out.append(Block(tag, start, close + len(closer), end, close))  # type: ignore[arg-type]
        else:
            out.append(Block(tag, start, limit, end, limit))
    return out


def parse_text(text: str, first_turn: int | None = None, outcome: Callable[[Any], bool] = outcome,
               limits: ParseLimits = DEFAULT_LIMITS) -> Calls:
    """Calls from Hermes/Qwen text: `<tool_call>{...}</tool_call>`, answered by `<tool_response>`.

    Reasoning inside `<think>` is ignored. The k-th response after a batch of calls answers the
    k-th call of the batch. A block left open ends where the next block starts, or at the end
    of the text (a truncated generation). ChatML user turns (`<|im_start|>user` not holding a
    tool response) start new turns, counted from `first_turn` (0 when not given); without any,
    calls have no turn. Reading stops at the caps of `limits`: the `<tool_call>` openers after
    that point are counted in `excess`.
    """
    if not isinstance(text, str):
        return Calls()
    return _parse_text(text, first_turn, outcome, limits.max_calls, limits.max_blocks, limits.max_chars)


def _parse_text(text: str, first_turn: int | None, outcome: Callable[[Any], bool], max_calls: int,
                max_blocks: int, max_chars: int) -> Calls:
    marks, cut = _marks(text, min(len(text), max_chars), max_calls, max_blocks)
    calls = Calls()
    pending = 0  # index of the oldest call still waiting for its response
    users = 0
    has_turns = first_turn is not None or "<|im_start|>user" in text
    base = first_turn or 0
    n = len(marks)
    find = text.find
    for k in range(n):
        start, end, tag = marks[k]
        limit = marks[k + 1][0] if k + 1 < n else cut
        if tag == "<tool_call>":
            close = find("</tool_call>", end, limit)
            calls.append(_from_block(text[end:close if close >= 0 else limit], base + users if has_turns else None))
        elif tag == "<tool_response>":
            while pending < len(calls) and calls[pending].ok is not None:
                pending += 1
            if pending < len(calls):
                close = find("</tool_response>", end, limit)
                calls[pending].ok = outcome(text[end:close if close >= 0 else limit].strip())
                pending += 1
        elif tag != "<think>" and not (k + 1 < n and marks[k + 1][2] == "<tool_response>"
                                       and not text[end:limit].strip()):
            users += 1
    if cut < len(text):
        calls.excess = text.count("<tool_call>", cut)
    return calls


# ----- plain JSON ----------------------------------------------------------------------------------

_KEY = re.compile(r'"(?:name|function|tool_calls)"[ \t\n\r]*:')


def _unfence(text: str) -> str:
    """The inside of a Markdown code fence around the whole text (```json ... ```), else the text."""
    stripped = text.strip()
    if not stripped.startswith("```"):
        return text
    inner = stripped[3:]
    if inner.startswith("json"):
        inner = inner[4:]
    if inner.endswith("```"):
        inner = inner[:-3]
    elif "```" in inner:
        return text
    return inner


def _object_start(text: str, key: int, floor: int) -> int:
    """Where the JSON value holding the key at `key` starts (`{`, or a `[`/`{` just before it), or -1."""
    i = key - 1
    while i >= floor and text[i] in _WS:
        i -= 1
    if i < floor or text[i] != "{":
        return -1
    j = i - 1
    while j >= floor and text[j] in _WS:
        j -= 1
    return j if j >= floor and text[j] in "[{" else i


def parse_json(text: Any, first_turn: int | None = None, limits: ParseLimits = DEFAULT_LIMITS) -> Calls:
    """Calls from plain JSON: one call object, a list of them, or `{"tool_calls": [...]}`.

    Text that does not start with JSON is searched for call objects; text with none holds no
    call (an answer in words). JSON that is started but broken is one malformed call. Reading
    stops at the caps of `limits`; the `"name"` keys after that point are counted in `excess`.
    """
    max_calls = limits.max_calls
    if not isinstance(text, str):
        return _from_decoded(text, first_turn, max_calls)
    excess = 0
    cut = len(text) > limits.max_chars
    if cut:
        excess = text.count('"name"', limits.max_chars)
        text = text[:limits.max_chars]
    text = _unfence(text)
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            calls = _from_decoded(json.loads(stripped), first_turn, max_calls)
        except (ValueError, RecursionError):
            pass
        else:
            calls.excess += excess
            return calls
    calls = Calls()
    pos = 0
    blocks = 0
    while True:
        m = _KEY.search(text, pos)
        if m is None:
            break
        blocks += 1
        if len(calls) >= max_calls or blocks > limits.max_blocks:
            excess += text.count('"name"', m.start())
            break
        start = _object_start(text, m.start(), pos)
        if start < 0:
            pos = m.end()
            continue
        try:
            value, end = _raw_decode(text, start)
        except (ValueError, RecursionError):
            calls.append(Call(None, None, None, first_turn))
            if cut:  # broken where the text was cut: the calls it went on to open are counted
                excess += max(0, text.count('"name"', m.start()) - 1)
            break
        found = _from_decoded(value, first_turn, max_calls - len(calls))
        calls.extend(found)
        excess += found.excess
        pos = end
    if not calls and stripped[:1] in ("{", "["):
        calls.append(Call(None, None, None, first_turn))
    calls.excess = excess
    return calls


def _from_decoded(value: Any, turn: int | None, max_calls: int) -> Calls:
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        value = value["tool_calls"]
    if isinstance(value, list):
        return Calls([_from_object(v, turn) for v in value[:max_calls]], max(0, len(value) - max_calls))
    return Calls([_from_object(value, turn)])


# ----- records -------------------------------------------------------------------------------------

def parse_completion(completion: Any, first_turn: int | None = None, outcome: Callable[[Any], bool] = outcome,
                     limits: ParseLimits = DEFAULT_LIMITS) -> Calls:
    """Calls from a completion: raw text (Hermes blocks or JSON) or a list of chat messages."""
    if isinstance(completion, str):
        if "<tool_call>" in completion or "<tool_response>" in completion:
            return parse_text(completion, first_turn, outcome, limits)
        return parse_json(completion, first_turn, limits)
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence) and not isinstance(completion, bytes):
        return parse_messages(completion, first_turn=first_turn, episode=False, outcome=outcome, limits=limits)
    return Calls()


def parse_messages(messages: Sequence[Any], *, first_turn: int | None = None, episode: bool = True,
                   outcome: Callable[[Any], bool] = outcome, limits: ParseLimits = DEFAULT_LIMITS) -> Calls:
    """Calls from OpenAI chat messages, with outcomes from the tool messages that answer them.

    Args:
        messages: chat messages as dicts.
        first_turn: with `episode`, the turn index of the first user message (default 0);
            otherwise the turn the messages continue (default: unknown until a user message).
        episode: the messages are a whole episode that starts with the prompt, so a call's
            turn is the number of user messages before it, less one; otherwise they continue
            a conversation whose prompt is elsewhere (a trainer's completion).
        outcome: tells a tool result's success from its body (`outcome_reader(Outcomes(...))`).
        limits: the reading caps; the calls past `max_calls` (entries of `tool_calls`, Hermes
            blocks) are counted in `excess`, not read.
    """
    calls = Calls()
    if type(messages) is not list and (isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence)):
        return calls
    by_id: dict[Any, Call] = {}
    pending = 0
    users = 0
    base = first_turn or 0
    known = not episode and first_turn is not None
    max_calls = limits.max_calls
    excess = 0
    for msg in messages:
        if type(msg) is not dict and not isinstance(msg, Mapping):
            continue
        role = msg.get("role")
        if role == "assistant":
            room = max_calls - len(calls)
            if room <= 0:
                excess += _opened(msg)
                continue
            turn = (base + users - (1 if episode else 0)) if known else None
            tool_calls = msg.get("tool_calls")
            if tool_calls:
                if not isinstance(tool_calls, list):
                    calls.append(Call(None, None, None, turn))
                    continue
                if len(tool_calls) > room:
                    excess += len(tool_calls) - room
                    tool_calls = tool_calls[:room]
                for tc in tool_calls:
                    if type(tc) is dict:
                        fn = tc.get("function")
                        name = fn.get("name") if type(fn) is dict else None
                        if type(name) is str and name:
                            # The common OpenAI shape, without the general path's checks.
                            raw = fn["arguments"] if "arguments" in fn else fn.get("parameters")
                            call = Call(name, raw if type(raw) is dict else read_arguments(raw), None, turn)
                        else:
                            call = _from_object(tc, turn)
                        cid = tc.get("id")
                        if type(cid) is str or isinstance(cid, (str, int)):
                            by_id[cid] = call
                    else:
                        call = _from_object(tc, turn)
                    calls.append(call)
                continue
            legacy = msg.get("function_call")
            if isinstance(legacy, dict):
                calls.append(_from_object(legacy, turn))
                continue
            content = msg.get("content")
            if content:
                text = _text(content)
                if "<tool_call>" in text:
                    found = _parse_text(text, None, outcome, room, limits.max_blocks, limits.max_chars)
                    for call in found:
                        call.turn = turn
                    calls.extend(found)
                    excess += found.excess
        elif role == "tool" or role == "function":
            tcid = msg.get("tool_call_id")
            call = by_id.pop(tcid, None) if type(tcid) is str or isinstance(tcid, (str, int)) else None
            if call is None and not excess:  # past the cap, a response may answer a call not read
                while pending < len(calls) and calls[pending].ok is not None:
                    pending += 1
                call = calls[pending] if pending < len(calls) else None
            if call is not None and call.ok is None:
                call.ok = outcome(msg.get("content"))
        elif role == "user":
            content = msg.get("content")
            if isinstance(content, str) and "<tool_response>" in content[:64]:
                # Hermes/Qwen form: tool responses ride in a user message.
                for block in (hermes_blocks(content, limits) if not excess else ()):
                    if block.tag != "<tool_response>":
                        continue
                    while pending < len(calls) and calls[pending].ok is not None:
                        pending += 1
                    if pending < len(calls):
                        calls[pending].ok = outcome(block.body(content).strip())
                        pending += 1
                continue
            users += 1
            known = True
    calls.excess = excess
    return calls


def _opened(msg: Mapping[str, Any]) -> int:
    """How many calls an assistant message makes, counted without reading them."""
    tool_calls = msg.get("tool_calls")
    if tool_calls:
        return len(tool_calls) if isinstance(tool_calls, list) else 1
    if isinstance(msg.get("function_call"), dict):
        return 1
    content = msg.get("content")
    return _text(content).count("<tool_call>") if content else 0


def parse_trajectory(trajectory: Mapping[str, Any], outcome: Callable[[Any], bool] = outcome,
                     limits: ParseLimits = DEFAULT_LIMITS) -> Calls:
    """Calls of a trajectory record (`messages`: a whole episode; or `completion`: raw text)."""
    if type(trajectory) is not dict and not isinstance(trajectory, Mapping):
        return Calls()
    messages = trajectory.get("messages")
    if messages is not None:
        return parse_messages(messages, outcome=outcome, limits=limits)
    return parse_completion(trajectory.get("completion"), outcome=outcome, limits=limits)
