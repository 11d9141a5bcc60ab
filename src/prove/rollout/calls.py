"""The tool calls of one assistant reply, in native OpenAI `tool_calls` form or Hermes text.

A policy answers either with native `tool_calls` (an endpoint with a tool parser) or with text
holding `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (Hermes / Qwen, an
endpoint without one, or raw token generation in a trainer). `normalize` turns both into the
records' chat form: an assistant message whose `tool_calls` carry every call, malformed ones
included, so that the environment answers each call and the reward sees each one.

A malformed call is kept, never dropped: a Hermes block that is not JSON becomes a call with
the name it seems to have (or `""`) and the block's text as its `arguments`; the environment
answers it with `invalid_arguments` or `unknown_tool`, and the reward counts it as an invalid
call. Dropping it (as some trainers' parsers do) would hide the mistake from both.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..calls import hermes_blocks, read_arguments

__all__ = ["PendingCall", "hermes_calls", "normalize", "render_hermes"]

_NAME = re.compile(r'"name"[ \t\n\r]{0,20}:[ \t\n\r]{0,20}"([^"\\]{1,200})"')


@dataclass(slots=True)
class PendingCall:
    """A call to run: its id, name and arguments (a dict, or the raw text when it is not a JSON object)."""

    id: str
    name: str
    arguments: Any


def _arguments_text(raw: Any) -> str:
    if raw is None:
        return "{}"
    if isinstance(raw, str):
        return raw
    return json.dumps(raw, ensure_ascii=False)


def _decode_arguments(raw: Any) -> Any:
    """Arguments as a dict when they are a JSON object (decoded twice if encoded twice), else as given."""
    decoded = read_arguments(raw)
    return raw if decoded is None else decoded


def hermes_calls(text: str) -> tuple[str, list[tuple[str, Any]]]:
    """The `<tool_call>` blocks of a text as (name, arguments) pairs, and the text without them.

    The blocks are those `prove.calls` reads (reasoning in `<think>` is not searched), so the
    environment runs exactly the calls the reward scores. `arguments` is a dict for a
    well-formed block, and the block's raw text otherwise (the name then is what the text
    seems to name, or "").
    """
    blocks = [b for b in hermes_blocks(text) if b.tag == "<tool_call>"] if "<tool_call>" in text else []
    if not blocks:
        return text, []
    calls: list[tuple[str, Any]] = []
    for block in blocks:
        body = block.body(text).strip()
        try:
            obj = json.loads(body)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("function"), dict):
            obj = obj["function"]
        if isinstance(obj, dict) and isinstance(obj.get("name"), str) and obj["name"]:
            raw = obj["arguments"] if "arguments" in obj else obj.get("parameters", {})
            calls.append((obj["name"], _decode_arguments(raw)))
        else:
            guess = _NAME.search(body)
            calls.append((guess.group(1) if guess else "", body))
    parts, pos = [], 0
    for block in blocks:
        parts.append(text[pos:block.start])
        pos = block.end
    parts.append(text[pos:])
    return "".join(parts).strip(), calls


def normalize(message: dict[str, Any], *, id_prefix: str = "call") -> tuple[dict[str, Any], list[PendingCall], str]:
    """An assistant reply in the records' chat form, the calls to run, and the form they came in.

    Native `tool_calls` win; without them, Hermes blocks in the content are parsed. Calls
    without an id get `{id_prefix}_{k}`. The form is `native`, `hermes` or `none`.
    """
    content = message.get("content")
    out: dict[str, Any] = {"role": "assistant", "content": content}
    for key, value in message.items():
        if key not in ("role", "content", "tool_calls", "function_call") and value is not None:
            out[key] = value       # reasoning_content and the like are kept
    raw_calls = message.get("tool_calls") or []
    if not raw_calls and isinstance(message.get("function_call"), dict):
        raw_calls = [{"function": message["function_call"]}]
    pending: list[PendingCall] = []
    form = "none"
    if raw_calls:
        form = "native"
        out["tool_calls"] = []
        for k, tc in enumerate(raw_calls):
            tc = tc if isinstance(tc, dict) else {}
            fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
            name = fn.get("name") if isinstance(fn.get("name"), str) else ""
            cid = tc["id"] if isinstance(tc.get("id"), str) and tc["id"] else f"{id_prefix}_{k}"
            call = PendingCall(cid, name, _decode_arguments(fn.get("arguments")))
            pending.append(call)
            out["tool_calls"].append(_tool_call(call, fn.get("arguments")))
    elif isinstance(content, str) and "<tool_call>" in content:
        rest, found = hermes_calls(content)
        if found:
            form = "hermes"
            pending = [PendingCall(f"{id_prefix}_{k}", name, args) for k, (name, args) in enumerate(found)]
            out["content"] = rest or None
            out["tool_calls"] = [_tool_call(p, p.arguments) for p in pending]
    return out, pending, form


def _tool_call(call: PendingCall, raw: Any) -> dict[str, Any]:
    # The arguments are kept as the model wrote them (malformed text included): the reward
    # scores what the model did, not a repaired version of it.
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": _arguments_text(raw)}}


def render_hermes(calls: list[dict[str, Any]], content: str | None = None) -> str:
    """Hermes text for calls given as {"name", "arguments"} (what a Qwen-style model writes)."""
    parts = [content] if content else []
    for call in calls:
        args = call.get("arguments", {})
        # A string is written as it is: the way to script a malformed block.
        body = args if isinstance(args, str) else json.dumps({"name": call["name"], "arguments": args},
                                                             ensure_ascii=False)
        parts.append(f"<tool_call>\n{body}\n</tool_call>")
    return "\n".join(parts)
