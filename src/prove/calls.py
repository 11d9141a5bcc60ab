"""The model's tool calls, from OpenAI `tool_calls`, Hermes/Qwen `<tool_call>` blocks or plain JSON.

The one call parser of PROVE: the reward scores what it reads, the rollout runs what it reads.
Every function here is linear in the length of its input (no backtracking pattern: model output
is adversarial input) and never raises.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Block", "Call", "Outcomes", "hermes_blocks", "outcome", "outcome_reader", "parse_completion", "parse_json",
    "parse_messages", "parse_text", "parse_trajectory", "read_arguments",
]


@dataclass(slots=True)
class Call:
    """One call the model made, as the reward sees it."""

    name: str | None
    args: dict[str, Any] | None
    ok: bool | None = None
    turn: int | None = None


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


def _marks(text: str) -> list[tuple[int, int, str]]:
    """(start, end, tag) of every opening tag outside `<think>`; a `<think>` is kept as a
    zero-width mark (it ends a block left open before it)."""
    marks: list[tuple[int, int, str]] = []
    skip = 0
    for m in _OPEN.finditer(text):
        start = m.start()
        if start < skip:
            continue
        tag = m.group()
        if tag == "<think>":
            close = text.find("</think>", m.end())
            skip = len(text) if close < 0 else close + 8
            marks.append((start, start, tag))
        else:
            marks.append((start, m.end(), tag))
    return marks


def hermes_blocks(text: str) -> list[Block]:
    """The blocks of a Hermes text in order; reasoning in `<think>` (an unclosed one runs to the end) is skipped."""
    marks = _marks(text)
    out: list[Block] = []
    n = len(marks)
    for k in range(n):
        start, end, tag = marks[k]
        if tag == "<think>":
            continue
        limit = marks[k + 1][0] if k + 1 < n else len(text)
        closer = _CLOSE.get(tag)
        close = text.find(closer, end, limit) if closer is not None else -1
        if close >= 0:
            out.append(Block(tag, start, close + len(closer), end, close))  # type: ignore[arg-type]
        else:
            out.append(Block(tag, start, limit, end, limit))
    return out


def parse_text(text: str, first_turn: int | None = None, outcome: Callable[[Any], bool] = outcome) -> list[Call]:
    """Calls from Hermes/Qwen text: `<tool_call>{...}</tool_call>`, answered by `<tool_response>`.

    Reasoning inside `<think>` is ignored. The k-th response after a batch of calls answers the
    k-th call of the batch. A block left open ends where the next block starts, or at the end
    of the text (a truncated generation). ChatML user turns (`<|im_start|>user` not holding a
    tool response) start new turns, counted from `first_turn` (0 when not given); without any,
    calls have no turn.
    """
    if not isinstance(text, str):
        return []
    marks = _marks(text)
    calls: list[Call] = []
    pending = 0  # index of the oldest call still waiting for its response
    users = 0
    has_turns = first_turn is not None or "<|im_start|>user" in text
    base = first_turn or 0
    n = len(marks)
    find = text.find
    for k in range(n):
        start, end, tag = marks[k]
        limit = marks[k + 1][0] if k + 1 < n else len(text)
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


def parse_json(text: Any, first_turn: int | None = None) -> list[Call]:
    """Calls from plain JSON: one call object, a list of them, or `{"tool_calls": [...]}`.

    Text that does not start with JSON is searched for call objects; text with none holds no
    call (an answer in words). JSON that is started but broken is one malformed call.
    """
    if not isinstance(text, str):
        return _from_decoded(text, first_turn)
    text = _unfence(text)
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return _from_decoded(json.loads(stripped), first_turn)
        except (ValueError, RecursionError):
            pass
    calls: list[Call] = []
    pos = 0
    while True:
        m = _KEY.search(text, pos)
        if m is None:
            break
        start = _object_start(text, m.start(), pos)
        if start < 0:
            pos = m.end()
            continue
        try:
            value, end = _raw_decode(text, start)
        except (ValueError, RecursionError):
            calls.append(Call(None, None, None, first_turn))
            break
        calls.extend(_from_decoded(value, first_turn))
        pos = end
    if not calls and stripped[:1] in ("{", "["):
        calls.append(Call(None, None, None, first_turn))
    return calls


def _from_decoded(value: Any, turn: int | None) -> list[Call]:
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        value = value["tool_calls"]
    if isinstance(value, list):
        return [_from_object(v, turn) for v in value]
    return [_from_object(value, turn)]


# ----- records -------------------------------------------------------------------------------------

def parse_completion(completion: Any, first_turn: int | None = None,
                     outcome: Callable[[Any], bool] = outcome) -> list[Call]:
    """Calls from a completion: raw text (Hermes blocks or JSON) or a list of chat messages."""
    if isinstance(completion, str):
        if "<tool_call>" in completion or "<tool_response>" in completion:
            return parse_text(completion, first_turn, outcome)
        return parse_json(completion, first_turn)
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence) and not isinstance(completion, bytes):
        return parse_messages(completion, first_turn=first_turn, episode=False, outcome=outcome)
    return []


def parse_messages(messages: Sequence[Any], *, first_turn: int | None = None, episode: bool = True,
                   outcome: Callable[[Any], bool] = outcome) -> list[Call]:
    """Calls from OpenAI chat messages, with outcomes from the tool messages that answer them.

    Args:
        messages: chat messages as dicts.
        first_turn: with `episode`, the turn index of the first user message (default 0);
            otherwise the turn the messages continue (default: unknown until a user message).
        episode: the messages are a whole episode that starts with the prompt, so a call's
            turn is the number of user messages before it, less one; otherwise they continue
            a conversation whose prompt is elsewhere (a trainer's completion).
        outcome: tells a tool result's success from its body (`outcome_reader(Outcomes(...))`).
    """
    calls: list[Call] = []
    if type(messages) is not list and (isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence)):
        return calls
    by_id: dict[Any, Call] = {}
    pending = 0
    users = 0
    base = first_turn or 0
    known = not episode and first_turn is not None
    for msg in messages:
        if type(msg) is not dict and not isinstance(msg, Mapping):
            continue
        role = msg.get("role")
        if role == "assistant":
            turn = (base + users - (1 if episode else 0)) if known else None
            tool_calls = msg.get("tool_calls")
            if tool_calls:
                if not isinstance(tool_calls, list):
                    calls.append(Call(None, None, None, turn))
                    continue
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
                    found = parse_text(text, outcome=outcome)
                    for call in found:
                        call.turn = turn
                    calls.extend(found)
        elif role == "tool" or role == "function":
            tcid = msg.get("tool_call_id")
            call = by_id.pop(tcid, None) if type(tcid) is str or isinstance(tcid, (str, int)) else None
            if call is None:
                while pending < len(calls) and calls[pending].ok is not None:
                    pending += 1
                call = calls[pending] if pending < len(calls) else None
            if call is not None and call.ok is None:
                call.ok = outcome(msg.get("content"))
        elif role == "user":
            content = msg.get("content")
            if isinstance(content, str) and "<tool_response>" in content[:64]:
                # Hermes/Qwen form: tool responses ride in a user message.
                for block in hermes_blocks(content):
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
    return calls


def parse_trajectory(trajectory: Mapping[str, Any], outcome: Callable[[Any], bool] = outcome) -> list[Call]:
    """Calls of a trajectory record (`messages`: a whole episode; or `completion`: raw text)."""
    if type(trajectory) is not dict and not isinstance(trajectory, Mapping):
        return []
    messages = trajectory.get("messages")
    if messages is not None:
        return parse_messages(messages, outcome=outcome)
    return parse_completion(trajectory.get("completion"), outcome=outcome)
