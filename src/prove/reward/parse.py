"""The model's tool calls, from OpenAI `tool_calls`, Hermes/Qwen `<tool_call>` blocks or plain JSON.

Parsing never raises. A call whose name cannot be read is kept as a call with `name=None`, and
one whose arguments are not a JSON object as a call with `args=None`: both count as calls (for
efficiency and precision) and fail validity, as a malformed call should.

A call's outcome (`ok`) comes from the trajectory itself: the tool message answering it (or the
`<tool_response>` block after it) is a failure when its body is the framework's error body
`{"error": {...}}`, a success otherwise, and unknown (`None`) when nothing answered it.

A call's `turn` is the index of the user turn it was made in (the user messages seen before
it), or `None` when the input shows no user turns at all (a bare completion).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Call", "outcome", "parse_completion", "parse_json", "parse_messages", "parse_text", "parse_trajectory"]


@dataclass(slots=True)
class Call:
    """One call the model made, as the reward sees it."""

    name: str | None
    args: dict[str, Any] | None
    ok: bool | None = None
    turn: int | None = None


_ERROR_PREFIX = re.compile(r'\s*\{\s*"error"\s*:')
# The tags that structure Hermes/Qwen text; a ChatML user turn that holds tool responses
# (Qwen's templates put them there) is not a new user turn.
_TAGS = re.compile(r"<tool_call>|<tool_response>|<\|im_start\|>user")
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)
_CALL_START = re.compile(r'[\[{]\s*\{?\s*"(?:name|function|tool_calls)"\s*:')
_decoder = json.JSONDecoder()
_raw_decode = _decoder.raw_decode


def _loads(text: str) -> Any:
    """`json.loads` for the hot path: most argument strings have no surrounding whitespace."""
    try:
        value, end = _raw_decode(text)
    except ValueError:
        return _decoder.decode(text)  # leading whitespace, or a real error (raised)
    if end != len(text) and text[end:].strip():
        raise ValueError(f"extra data after the JSON value at {end}")
    return value


def outcome(content: Any) -> bool:
    """Whether a tool result body is a success (`False` for `{"error": {...}}`)."""
    if isinstance(content, str):
        if _ERROR_PREFIX.match(content) is None:
            return True
        try:
            content = json.loads(content)
        except ValueError:
            return True
    elif isinstance(content, list):
        return outcome(_text(content))
    return not (isinstance(content, dict) and len(content) == 1 and isinstance(content.get("error"), dict))


def _text(content: Any) -> str:
    """Message content as text (OpenAI content parts joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _arguments(raw: Any) -> dict[str, Any] | None:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = _loads(raw)
        except (ValueError, RecursionError):
            return {} if not raw.strip() else None
        # Some models encode the arguments twice: "{\"a\": 1}".
        if isinstance(value, str):
            return _arguments(value)
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
    return Call(name, _arguments(raw), None, turn)


def _from_block(body: str, turn: int | None) -> Call:
    try:
        return _from_object(_loads(body.strip()), turn)
    except (ValueError, RecursionError):
        return Call(None, None, None, turn)


def _strip_think(text: str) -> str:
    """The text without `<think>...</think>` reasoning (an unclosed one runs to the end)."""
    parts = []
    pos = 0
    while True:
        i = text.find("<think>", pos)
        if i < 0:
            parts.append(text[pos:])
            return "".join(parts)
        parts.append(text[pos:i])
        j = text.find("</think>", i + 7)
        if j < 0:
            return "".join(parts)
        pos = j + 8


def _responses(text: str) -> list[bool]:
    """The outcomes of the `<tool_response>` blocks of a text, in order."""
    out = []
    pos = 0
    while True:
        i = text.find("<tool_response>", pos)
        if i < 0:
            return out
        start = i + len("<tool_response>")
        nxt = text.find("<tool_response>", start)
        stop = nxt if nxt >= 0 else len(text)
        close = text.find("</tool_response>", start, stop)
        end = close if close >= 0 else stop
        out.append(outcome(text[start:end].strip()))
        pos = end


def parse_text(text: str, first_turn: int | None = None) -> list[Call]:
    """Calls from Hermes/Qwen text: `<tool_call>{...}</tool_call>`, answered by `<tool_response>`.

    Reasoning inside `<think>` is ignored. The k-th response after a batch of calls answers the
    k-th call of the batch. A block left open ends where the next block starts, or at the end
    of the text (a truncated generation). ChatML user turns (`<|im_start|>user` not holding a
    tool response) start new turns, counted from `first_turn` (0 when not given); without any,
    calls have no turn.
    """
    if not isinstance(text, str):
        return []
    if "<think>" in text:
        text = _strip_think(text)
    tags = [(m.start(), m.end(), m.group()) for m in _TAGS.finditer(text)]
    calls: list[Call] = []
    pending = 0  # index of the oldest call still waiting for its response
    users = 0
    has_turns = first_turn is not None or "<|im_start|>user" in text
    base = first_turn or 0
    last = len(tags) - 1
    for k, (_, end, tag) in enumerate(tags):
        limit = tags[k + 1][0] if k < last else len(text)
        if tag == "<tool_call>":
            close = text.find("</tool_call>", end, limit)
            body = text[end:close if close >= 0 else limit]
            calls.append(_from_block(body, base + users if has_turns else None))
        elif tag == "<tool_response>":
            while pending < len(calls) and calls[pending].ok is not None:
                pending += 1
            if pending < len(calls):
                close = text.find("</tool_response>", end, limit)
                calls[pending].ok = outcome(text[end:close if close >= 0 else limit].strip())
                pending += 1
        elif not (k < last and tags[k + 1][2] == "<tool_response>" and not text[end:limit].strip()):
            users += 1
    return calls


def parse_json(text: Any, first_turn: int | None = None) -> list[Call]:
    """Calls from plain JSON: one call object, a list of them, or `{"tool_calls": [...]}`.

    Text that does not start with JSON is searched for call objects; text with none holds no
    call (an answer in words). JSON that is started but broken is one malformed call.
    """
    if not isinstance(text, str):
        return _from_decoded(text, first_turn)
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return _from_decoded(json.loads(stripped), first_turn)
        except (ValueError, RecursionError):
            pass
    calls: list[Call] = []
    pos = 0
    while True:
        m = _CALL_START.search(text, pos)
        if m is None:
            break
        try:
            value, end = _decoder.raw_decode(text, m.start())
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


def parse_completion(completion: Any, first_turn: int | None = None) -> list[Call]:
    """Calls from a completion: raw text (Hermes blocks or JSON) or a list of chat messages."""
    if isinstance(completion, str):
        if "<tool_call>" in completion or "<tool_response>" in completion:
            return parse_text(completion, first_turn)
        return parse_json(completion, first_turn)
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence) and not isinstance(completion, bytes):
        return parse_messages(completion, first_turn=first_turn, episode=False)
    return []


def parse_messages(messages: Sequence[Any], *, first_turn: int | None = None, episode: bool = True) -> list[Call]:
    """Calls from OpenAI chat messages, with outcomes from the tool messages that answer them.

    Args:
        messages: chat messages as dicts.
        first_turn: with `episode`, the turn index of the first user message (default 0);
            otherwise the turn the messages continue (default: unknown until a user message).
        episode: the messages are a whole episode that starts with the prompt, so a call's
            turn is the number of user messages before it, less one; otherwise they continue
            a conversation whose prompt is elsewhere (a trainer's completion).
    """
    calls: list[Call] = []
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
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
                    fn = tc.get("function") if type(tc) is dict else None
                    if type(fn) is dict and type(fn.get("name")) is str and fn["name"]:
                        # The common OpenAI shape, without the general path's checks.
                        raw = fn["arguments"] if "arguments" in fn else fn.get("parameters")
                        call = Call(fn["name"], raw if type(raw) is dict else _arguments(raw), None, turn)
                    else:
                        call = _from_object(tc, turn)
                    calls.append(call)
                    if type(tc) is dict and isinstance(tc.get("id"), (str, int)):
                        by_id[tc["id"]] = call
                continue
            legacy = msg.get("function_call")
            if isinstance(legacy, dict):
                calls.append(_from_object(legacy, turn))
                continue
            content = msg.get("content")
            if content:
                text = _text(content)
                if "<tool_call>" in text:
                    found = parse_text(text)
                    for call in found:
                        call.turn = turn
                    calls.extend(found)
        elif role == "tool" or role == "function":
            tcid = msg.get("tool_call_id")
            call = by_id.pop(tcid, None) if isinstance(tcid, (str, int)) else None
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
                for ok in _responses(content):
                    while pending < len(calls) and calls[pending].ok is not None:
                        pending += 1
                    if pending < len(calls):
                        calls[pending].ok = ok
                        pending += 1
                continue
            users += 1
            known = True
    return calls


def parse_trajectory(trajectory: Mapping[str, Any]) -> list[Call]:
    """Calls of a trajectory record (`messages`: a whole episode; or `completion`: raw text)."""
    if not isinstance(trajectory, Mapping):
        return []
    messages = trajectory.get("messages")
    if messages is not None:
        return parse_messages(messages)
    return parse_completion(trajectory.get("completion"))
