"""Wording figures of a dataset: does it read as people write, and does it cover the tools?

`figures(example, server)` measures one accepted example (in the worker that made it); the run's
report adds them up (`summarize`):

- replies that paste a tool's description (its summary sentence) — target 0;
- user turns with a parameter-name clause ("Use yes as the read only.", "For the from account,
  use ...", "(read only: yes)") or a schema word (a parameter name or an enum value in
  snake_case, such as 'free_busy'; a username like 'arjuns_furniture' is a value, not schema) —
  target 0;
- user turns that name a raw ID ("MSG-10010") — target at most 15% (order numbers and other IDs
  people quote count too);
- searches (read calls with a query argument) that find nothing — target at most 10%;
- replies that read a record field by field ("Emily: seat position 6, mirror preset A, climate
  target 68"), where a person would say it in a sentence — as few as can be;
- the most frequent opener (the first two words of a conversation) — target at most 3%;
- distinct request skeletons (user turns with their values masked);
- tool coverage: gold calls per visible tool — target: every tool in at least 5 gold calls.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ..env import Server
from .entities import found_nothing
from .phrasing import QUERY_PARAMS

__all__ = ["FIELD_DUMP", "figures", "summarize"]

RAW_ID = re.compile(r"(?<![0-9A-Za-z])[A-Z][A-Z0-9]{1,9}-\d{3,}(?![0-9A-Za-z])")
_SNAKE = re.compile(r"(?<![\w@./-])[a-z]+_[a-z_]+(?![\w@./-])")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"\$?\d[\d,.:]*")
_NAME = re.compile(r"(?:[A-Z][\w&'-]*)(?:\s+[A-Z][\w&'-]*)+")
_WORD = re.compile(r"[a-z']+")
# A record read field by field: a name, a colon, then three or more "<field words> <value>" parts.
FIELD_DUMP = re.compile(r"(?:^|[:;.] )(?!Done\b)[A-Z][^:;.]{1,60}: (?!(?:it|its|the|you|your|they|a|an|there)\b)"
                        r"(?:[a-z][a-z]*(?: [a-z]+){0,2} [^,;:]{1,40}, ){2,}[a-z]")


def _clause_patterns(server: Server) -> re.Pattern[str]:
    words = sorted({p.name.removesuffix("_ids").removesuffix("_id").replace("_", " ")
                    for t in server.visible_tools for p in t.params if "_" in p.name or len(p.name) > 3}, key=len,
                   reverse=True)
    alt = "|".join(re.escape(w) for w in words if len(w) > 2)
    return re.compile(rf"\b(?:use .{{1,60}} as the (?:{alt})\b|for the (?:{alt}), use\b|\((?:{alt}): )",
                      re.IGNORECASE)


_PATTERNS: dict[str, re.Pattern[str]] = {}
_SCHEMA_WORDS: dict[str, frozenset[str]] = {}


def _schema_words(server: Server) -> frozenset[str]:
    """The snake_case words of a server's schemas (parameter names, enum values): schema leaking into speech."""
    found = _SCHEMA_WORDS.get(server.name)
    if found is None:
        words: set[str] = set()
        for tool in server.visible_tools:
            for name, prop in tool.parameters.get("properties", {}).items():
                words.add(name)
                for value in prop.get("enum") or (prop.get("items") or {}).get("enum") or ():
                    if isinstance(value, str):
                        words.add(value)
        found = _SCHEMA_WORDS[server.name] = frozenset(w for w in words if "_" in w)
    return found


def _skeleton(text: str) -> str:
    masked = RAW_ID.sub("<id>", text)
    masked = _QUOTED.sub("<text>", masked)
    masked = _NAME.sub("<name>", masked)
    masked = _NUMBER.sub("<n>", masked)
    return " ".join(_WORD.findall(masked.lower().replace("<", " <")) + re.findall(r"<\w+>", masked))


def figures(example: Mapping[str, Any], server: Server) -> dict[str, Any]:
    """The wording figures of one example (see the module doc)."""
    pattern = _PATTERNS.get(server.name)
    if pattern is None:
        pattern = _PATTERNS[server.name] = _clause_patterns(server)
    summaries = [t.summary for t in server.tools.values() if len(t.summary) >= 25]
    users = [m["content"] for m in example["messages"] if m.get("role") == "user" and isinstance(m.get("content"), str)]
    replies = [m["content"] for m in example["messages"]
               if m.get("role") == "assistant" and isinstance(m.get("content"), str) and m["content"]]
    results = {m.get("tool_call_id"): m.get("content") for m in example["messages"] if m.get("role") == "tool"}
    searches = empty = 0
    for turn in example["turns"]:
        for call in turn["calls"]:
            tool = server.tools.get(call["name"])
            if tool is None or not tool.read_only or not QUERY_PARAMS & set(call.get("arguments", {})):
                continue
            searches += 1
            empty += _is_empty(results.get(call["id"]))
    first = users[0] if users else ""
    return {
        "user_turns": len(users),
        "clause_turns": sum(1 for u in users if pattern.search(u) or _schema_words(server) & set(_SNAKE.findall(u))),
        "raw_id_turns": sum(1 for u in users if RAW_ID.search(u)),
        "replies": len(replies),
        "docstring_replies": sum(1 for r in replies if any(s in r for s in summaries)),
        "field_dump_replies": sum(1 for r in replies if FIELD_DUMP.search(r)),
        "searches": searches,
        "empty_searches": empty,
        "opener": " ".join(first.split()[:2]).lower().strip(",.!?:"),
        "skeletons": [hashlib.blake2b(_skeleton(u).encode(), digest_size=6).hexdigest() for u in users],
        "gold_tools": [c["name"] for t in example["turns"] for c in t["calls"]],
    }


def _is_empty(content: Any) -> bool:
    try:
        data = json.loads(content) if isinstance(content, str) else content
    except ValueError:
        return False
    return found_nothing(data)


def _share(a: int, b: int) -> float | None:
    return a / b if b else None


def summarize(metas: Iterable[Mapping[str, Any]], servers: Iterable[Server], reasons: Mapping[str, int]) -> dict[str, Any]:
    """The run's wording figures from its accepted candidates' records."""
    metas = [m for m in metas if "quality" in m]
    q = [m["quality"] for m in metas]
    total = lambda key: sum(x.get(key, 0) for x in q)  # noqa: E731  (a shard written before a figure existed lacks it)
    openers = Counter(x["opener"] for x in q)
    skeletons = [s for x in q for s in x["skeletons"]]
    used = Counter((m["server"], name) for m in metas for name in m["quality"]["gold_tools"])
    visible = sorted({(s.name, t.name) for s in servers for t in s.visible_tools})
    per_tool = {f"{s}.{t}": used.get((s, t), 0) for s, t in visible}
    top = openers.most_common(1)
    return {
        "unfaithful": {k: v for k, v in sorted(reasons.items()) if k.startswith("unfaithful")},
        "docstring_reply_share": _share(total("docstring_replies"), total("replies")),
        "field_dump_reply_share": _share(total("field_dump_replies"), total("replies")),
        "clause_turn_share": _share(total("clause_turns"), total("user_turns")),
        "raw_id_turn_share": _share(total("raw_id_turns"), total("user_turns")),
        "empty_search_share": _share(total("empty_searches"), total("searches")),
        "searches": total("searches"),
        "top_opener": top[0][0] if top else None,
        "top_opener_share": _share(top[0][1], len(q)) if top else None,
        "distinct_skeletons": len(set(skeletons)),
        "user_turns": total("user_turns"),
        "tools_visible": len(visible),
        "tools_in_5_gold_calls": sum(1 for n in per_tool.values() if n >= 5),
        "tool_coverage": _share(sum(1 for n in per_tool.values() if n >= 5), len(visible)),
        "tools_never_used": sorted(k for k, n in per_tool.items() if n == 0),
    }
