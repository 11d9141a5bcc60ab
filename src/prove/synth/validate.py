"""Stage 5: validation. Every example is replayed before it is accepted.

`check(example)` replays the conversation's calls, in order, on a fresh episode of the same
world (a new session, or a trial of an untouched one) and rejects it when:

- the record does not validate as `records.Example` (`schema`);
- a replayed result differs from the recorded tool message (`replay_mismatch`);
- more than `max_failure_rate` of the calls fail on schema or execution (`too_many_failures`;
  an empty result is not a failure);
- the gold calls are not exactly the calls that succeeded (`gold_mismatch`);
- the replayed final fingerprint differs from the recorded one (`fingerprint_mismatch`);
- a gold call names an entity that does not exist at that point (`ungrounded_reference`);
- a `Sensitive` value of a gold call appeared in no earlier user turn or tool output
  (`sensitive_provenance`), or the recorded provenance is not where it first appeared;
- a gold call does not mean what the conversation asked (`unfaithful_*`, see `faithful.py`).

`Deduper` then drops near-duplicates: Jaccard similarity of the gold call sequences (name and
arguments of each call) at or above the threshold (0.70), with prefix filtering so that a
dataset of tens of thousands costs milliseconds. Examples without calls compare their
requests instead.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..env import Server, Session
from ..records import Example
from .entities import EntityIndex, extract_entities
from .faithful import faithfulness
from .machine import fresh_episode, sensitive_provenance

__all__ = ["Deduper", "Verdict", "call_set", "check"]


@dataclass
class Verdict:
    ok: bool
    reason: str | None = None
    detail: str = ""
    calls: int = 0
    failed: int = 0
    gold_refs: int = 0
    gold_refs_exist: int = 0
    fingerprint: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "reason": self.reason, "detail": self.detail, "calls": self.calls,
                "failed": self.failed, "gold_refs": self.gold_refs, "gold_refs_exist": self.gold_refs_exist}


def _args(text: Any) -> Any:
    if isinstance(text, str):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def check(example: Mapping[str, Any], server: Server, index: EntityIndex, *, max_failure_rate: float = 0.30,
          parse: bool = True, episode: Session | None = None) -> Verdict:
    """Replay one example (a plain dict in the record shape) and judge it (see the module docstring;
    `episode`: see `machine.fresh_episode`)."""
    if parse:
        try:
            Example.model_validate(example)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            return Verdict(False, "schema", f"{'.'.join(map(str, first['loc']))}: {first['msg']}")
    messages = example["messages"]
    gold = {c["id"]: c for t in example["turns"] for c in t["calls"]}
    results = {m["tool_call_id"]: m for m in messages if m.get("role") == "tool"}
    verdict = Verdict(True)
    created: dict[str, set[str]] = {}
    succeeded: list[tuple[str, int, str, Any]] = []
    with fresh_episode(server, example["world"], episode, session_id=f"replay-{example['id']}") as session:
        users = 0
        for at, m in enumerate(messages):
            if m.get("role") == "user":
                if users < len(example["turns"]) and example["turns"][users].get("advance"):
                    session.advance(example["turns"][users]["advance"])
                users += 1
            if m.get("role") != "assistant" or not m.get("tool_calls"):
                continue
            for tc in m["tool_calls"]:
                name = tc["function"]["name"]
                args = _args(tc["function"].get("arguments", "{}"))
                tool = server.tools.get(name)
                if tc["id"] in gold and tool is not None and isinstance(args, dict):
                    for p in tool.params:
                        if p.entity and p.name in args:
                            values = args[p.name] if isinstance(args[p.name], list) else [args[p.name]]
                            for v in values:
                                if isinstance(v, str):
                                    verdict.gold_refs += 1
                                    if index.exists(p.entity, v, created):
                                        verdict.gold_refs_exist += 1
                                    else:
                                        verdict.ok, verdict.reason = False, "ungrounded_reference"
                                        verdict.detail = f"{tc['id']}: {name}.{p.name} = {v!r} does not exist"
                shown = tool is not None and any(t["function"]["name"] == name for t in example["tools"])
                result = session.call(name, args) if shown else session.call(f"__not_offered__{name}", args)
                verdict.calls += 1
                if not result.ok:
                    verdict.failed += 1
                else:
                    succeeded.append((tc["id"], at, name, args))
                    if tool is not None:
                        for kind, value, _ in extract_entities(tool, result.data):
                            created.setdefault(kind, set()).add(value)
                recorded = results.get(tc["id"])
                if recorded is None or recorded.get("content") != result.text():
                    if verdict.ok or verdict.reason == "ungrounded_reference":
                        verdict.ok, verdict.reason = False, "replay_mismatch"
                        verdict.detail = f"{tc['id']} ({name}) returned something else on replay"
        verdict.fingerprint = session.fingerprint()
    if not verdict.ok:
        return verdict
    if verdict.calls and verdict.failed / verdict.calls > max_failure_rate + 1e-12:
        return _fail(verdict, "too_many_failures", f"{verdict.failed} of {verdict.calls} calls failed")
    ok_ids = [s[0] for s in succeeded]
    if ok_ids != list(gold):
        return _fail(verdict, "gold_mismatch", f"succeeded {ok_ids}, gold {list(gold)}")
    for cid, _, name, args in succeeded:
        g = gold[cid]
        if g["name"] != name or g["arguments"] != args:
            return _fail(verdict, "gold_mismatch", f"{cid}: the gold call is not the call made")
    if verdict.fingerprint != example.get("fingerprint"):
        return _fail(verdict, "fingerprint_mismatch", f"replayed {verdict.fingerprint}, recorded "
                                                       f"{example.get('fingerprint')}")
    provenance, missing = sensitive_provenance(messages, [s for s in succeeded if isinstance(s[3], dict)], server)
    if missing:
        return _fail(verdict, "sensitive_provenance", f"never given before use: {', '.join(missing)}")
    if provenance != list(example.get("provenance", [])):
        return _fail(verdict, "provenance_mismatch", "the recorded provenance is not where values first appeared")
    unfaithful = faithfulness(example, server, index)
    if unfaithful is not None:
        return _fail(verdict, unfaithful.reason, unfaithful.detail)
    return verdict


def _fail(verdict: Verdict, reason: str, detail: str) -> Verdict:
    verdict.ok, verdict.reason, verdict.detail = False, reason, detail
    return verdict


# ----- deduplication ----------------------------------------------------------------------------

_WORDS = re.compile(r"[a-z0-9]+")


def call_set(example: Mapping[str, Any]) -> frozenset[str]:
    """The elements compared for near-duplicates: each gold call with its arguments, per server."""
    server = ",".join(example.get("servers", []))
    calls = [c for t in example.get("turns", []) for c in t.get("calls", [])]
    if calls:
        seen: dict[str, int] = {}
        out = []
        for c in calls:
            key = f"{server}:{c['name']}:{json.dumps(c.get('arguments', {}), sort_keys=True, ensure_ascii=False)}"
            seen[key] = seen.get(key, 0) + 1
            out.append(f"{key}#{seen[key]}")  # a repeated call counts twice
        return frozenset(out)
    text = " ".join(t.get("user", "") for t in example.get("turns", [])).lower()
    return frozenset({f"{server}:{example.get('kind')}:text:" + " ".join(_WORDS.findall(text))})


def _rank(element: str) -> bytes:
    return hashlib.blake2b(element.encode(), digest_size=8).digest()


@dataclass
class Deduper:
    """Keeps sets whose Jaccard similarity to every kept set is below `threshold`."""

    threshold: float = 0.70
    _sets: list[frozenset[str]] = field(default_factory=list)
    _index: dict[str, list[int]] = field(default_factory=dict)

    def _prefix(self, ordered: list[str]) -> list[str]:
        n = len(ordered)
        keep = n - math.ceil(self.threshold * n - 1e-9) + 1
        return ordered[:max(1, keep)]

    def similar(self, items: frozenset[str]) -> float:
        """The highest Jaccard similarity to a kept set (0 if none shares a prefix element)."""
        if self.threshold >= 1 or not items:
            return 0.0
        ordered = sorted(items, key=_rank)
        best = 0.0
        seen: set[int] = set()
        for element in self._prefix(ordered):
            for j in self._index.get(element, ()):
                if j in seen:
                    continue
                seen.add(j)
                other = self._sets[j]
                inter = len(items & other)
                if inter:
                    best = max(best, inter / (len(items) + len(other) - inter))
        return best

    def add(self, items: frozenset[str]) -> bool:
        """Keep `items` unless it is a near-duplicate; returns whether it was kept."""
        if self.threshold < 1 and items and self.similar(items) >= self.threshold - 1e-12:
            return False
        self.keep(items)
        return True

    def keep(self, items: frozenset[str]) -> None:
        j = len(self._sets)
        self._sets.append(items)
        for element in self._prefix(sorted(items, key=_rank)):
            self._index.setdefault(element, []).append(j)

    def __len__(self) -> int:
        return len(self._sets)


def dedup(examples: Iterable[Mapping[str, Any]], threshold: float = 0.70) -> list[int]:
    """Indices of the examples kept, in order."""
    d = Deduper(threshold)
    return [i for i, ex in enumerate(examples) if d.add(call_set(ex))]
