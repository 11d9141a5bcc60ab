"""The OpenAI-compatible teacher: any chat-completions endpoint writes the conversations.

vLLM, SGLang, Ollama, llama.cpp's server and hosted APIs all speak `POST /chat/completions`.
The teacher plays both sides: it writes the user's messages (from the chain, the sampling
context, a persona and the information level) and the assistant's moves (with the example's
tools); the state machine executes the calls and validates every move, asking for a
regeneration with the validator's feedback when a move is malformed (invalid JSON arguments,
an unknown tool, an invented entity).

Transport: an async client with bounded concurrency (a semaphore over in-flight requests),
retries with exponential backoff on timeouts, connection errors, 429 and 5xx, and an on-disk
response cache keyed by the request, so that a run can be replayed exactly.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import weakref
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx2 as httpx

from ...env import Server, Tool
from ..contract import Call, Conversation, Move, Rejected
from ..graph import LABELS
from ..wording import PERSONAS
from .cache import ResponseCache, request_key

__all__ = ["OpenAITeacher", "TeacherError"]

QUERY_MARK = "You write the USER side of a conversation"
CLASSIFY_MARK = "Classify the dependency"
_ID = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{3,}\b")


class TeacherError(Exception):
    """The endpoint failed after every retry."""


class OpenAITeacher:
    """See the module docstring. Options come from `--teacher openai:MODEL@URL` and `teacher_options`."""

    is_async = True

    def __init__(self, model: str, base_url: str, *, cache_dir: Path | None = None, concurrency: int = 16,
                 timeout: float = 120.0, retries: int = 4, backoff: float = 0.5, temperature: float = 0.7,
                 max_tokens: int = 1024, api_key: str | None = None, classify: bool = True,
                 cache: bool = True) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.id = f"openai:{model}"
        self.concurrency = max(1, int(concurrency))
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.classify = classify
        self.cache = ResponseCache(Path(cache_dir) / "responses.sqlite") if (cache and cache_dir) else None
        self.stats: Counter[str] = Counter()
        self._client: httpx.AsyncClient | None = None
        self._sem: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._regen: weakref.WeakKeyDictionary[Conversation, list[dict[str, Any]]] = weakref.WeakKeyDictionary()

    # ----- transport -----------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _ensure(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
            self._client = httpx.AsyncClient(base_url=self.base_url, timeout=self.timeout, limits=limits,
                                             headers=self._headers())
            self._sem = asyncio.Semaphore(self.concurrency)

    def _payload(self, messages: list[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None,
                 salt: int = 0) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature,
                                   "max_tokens": self.max_tokens}
        if tools:
            payload["tools"] = list(tools)
            payload["tool_choice"] = "auto"
        if salt:
            payload["seed"] = salt
        return payload

    async def complete(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The assistant message the endpoint returns for `payload` (cached, retried)."""
        key = request_key({"base_url": self.base_url, **payload})
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self.stats["cache_hits"] += 1
                return hit
        self._ensure()
        assert self._client is not None and self._sem is not None
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                self.stats["retries"] += 1
                await asyncio.sleep(self.backoff * (2 ** (attempt - 1)) * (0.5 + random.random()))
            try:
                async with self._sem:
                    self.stats["requests"] += 1
                    response = await self._client.post("/chat/completions", json=payload)
                if response.status_code == 429 or response.status_code >= 500:
                    last = TeacherError(f"HTTP {response.status_code}: {response.text[:200]}")
                    self.stats["http_errors"] += 1
                    continue
                if response.status_code >= 400:
                    raise TeacherError(f"HTTP {response.status_code}: {response.text[:300]}")
                data = response.json()
                message = data["choices"][0]["message"]
                if not isinstance(message, dict):
                    raise TeacherError("the response has no message object")
            except httpx.TimeoutException as exc:
                self.stats["timeouts"] += 1
                last = exc
                continue
            except httpx.TransportError as exc:
                self.stats["transport_errors"] += 1
                last = exc
                continue
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                self.stats["bad_responses"] += 1
                last = TeacherError(f"not a chat-completions response: {exc!r}")
                continue
            if self.cache is not None:
                self.cache.put(key, message)
            return message
        raise TeacherError(f"{self.base_url}: no answer after {self.retries + 1} attempts: {last!r}")

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        self._client = None
        self._loop = None

    # ----- prompts -------------------------------------------------------------------------------

    def _segments(self, conv: Conversation) -> list[list[str]]:
        chain = list(conv.spec.chain)
        turns = max(1, min(conv.spec.turns, len(chain))) if chain else 1
        size = max(1, -(-len(chain) // turns))
        return [chain[i:i + size] for i in range(0, len(chain), size)] or [[]]

    def _tool_lines(self, server: Server, names: Sequence[str]) -> str:
        lines = []
        for n in names:
            t = server.tools.get(n)
            if t is None:
                continue
            params = ", ".join(f"{p.name}{'' if p.required else '?'}" for p in t.params)
            lines.append(f"- {t.name}({params}): {t.summary}")
        return "\n".join(lines)

    def _query_prompt(self, conv: Conversation) -> list[dict[str, Any]]:
        spec = conv.spec
        server = spec.server
        seg = self._segments(conv)
        turn = conv.turn + 1
        parts = [f"{QUERY_MARK} with an assistant for {server.title}: {server.description}",
                 f"The user's style: {self._persona(conv)}. Today is Monday 2026-03-16, 09:00.",
                 "Write only the user's next message, as plain text: no quotes, no role names, no explanations."]
        if not spec.ungrounded:
            parts.append(spec.context.render())
            parts.append("Use only entities and values from this live state; never invent IDs, names or codes.")
        else:
            parts.append("Use realistic IDs and values of your choice.")
        if spec.kind == "irrelevance":
            parts.append(f"Ask something unrelated to {server.title}: general knowledge, advice or chit-chat.")
        elif spec.kind == "abstention":
            t = server.tools.get(spec.abstain_tool or "")
            parts.append(f"Ask the assistant to do this: {t.summary if t else 'something the tools cannot do'}.")
        elif turn == 0:
            parts.append("The request should need these tools, in this order:\n" + self._tool_lines(server, seg[0]))
            if spec.level == "minimal":
                parts.append("Name things the way a person would (names, not IDs) and leave optional details out.")
            elif spec.level == "missing":
                parts.append("Leave out one value the first tool requires, so that the assistant has to ask for it.")
            else:
                parts.append("Give every value the tools need.")
        else:
            last = next((m.get("content") for m in reversed(conv.messages) if m["role"] == "assistant"), "") or ""
            if self._asked(conv):
                parts.append(f"The assistant asked: {last!r}. Answer with the value it needs.")
            else:
                nxt = seg[min(turn, len(seg) - 1)] if turn < len(seg) else seg[-1]
                parts.append("Write a short follow-up request that needs these tools:\n" + self._tool_lines(server, nxt))
        transcript = "\n".join(f"{m['role'].upper()}: {m.get('content') or ''}" for m in conv.messages[1:]
                               if m["role"] in ("user", "assistant") and m.get("content"))
        if transcript:
            parts.append("The conversation so far:\n" + transcript)
        return [{"role": "system", "content": "\n\n".join(parts)},
                {"role": "user", "content": "Write the user's message now."}]

    def _asked(self, conv: Conversation) -> bool:
        if conv.turn < 0 or conv.turn_calls():
            return False
        last = next((m for m in reversed(conv.messages) if m["role"] == "assistant"), None)
        return bool(last and isinstance(last.get("content"), str) and last["content"].rstrip().endswith("?"))

    # ----- the machine's questions ---------------------------------------------------------------

    async def query(self, conv: Conversation) -> str | None:
        spec = conv.spec
        if conv.turn >= 0:
            if spec.kind in ("irrelevance", "abstention") or conv.turn + 1 >= spec.turns:
                return None
        messages = self._query_prompt(conv)
        for attempt in range(spec.max_regenerations + 1):
            message = await self._call(self._payload(messages, salt=attempt))
            text = (message.get("content") or "").strip().strip('"').strip()
            problem = None
            if not text:
                problem = "the message is empty"
            elif len(text) > 2000:
                problem = "the message is longer than 2000 characters"
            elif not spec.ungrounded:
                known = conv.known_values()
                invented = [i for i in _ID.findall(text) if i not in known]
                if invented:
                    problem = f"{', '.join(invented[:3])} are not in the live state; use IDs from the context"
            if problem is None:
                return text
            conv.regenerations += 1
            conv.feedback.append(f"user turn: {problem}")
            messages = [*messages, {"role": "assistant", "content": text},
                        {"role": "user", "content": f"That message was rejected: {problem}. Write it again."}]
        raise Rejected("teacher_format", "the user turn was rejected after every regeneration")

    async def assistant(self, conv: Conversation, feedback: str | None = None) -> Move:
        spec = conv.spec
        system = conv.messages[0]["content"]
        if not spec.ungrounded:
            system += "\n\n" + spec.context.render()
        messages = [{"role": "system", "content": system}, *conv.messages[1:]]
        regen: list[dict[str, Any]] = self._regen.get(conv, []) if feedback is not None else []
        if feedback is not None:
            # A regeneration sees the answers it corrects and why they were rejected.
            regen.append({"role": "user", "content": f"[validator] {feedback}. Answer again."})
            messages.extend(regen)
        message = await self._call(self._payload(messages, conv.tools))
        answer: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        if message.get("tool_calls"):
            answer["tool_calls"] = message["tool_calls"]
        self._regen[conv] = [*regen, answer]
        return _move(message)

    async def _call(self, payload: dict[str, Any]) -> dict[str, Any]:
        try:
            return await self.complete(payload)
        except TeacherError as exc:
            raise Rejected("teacher_error", str(exc)) from exc

    def advance(self, conv: Conversation) -> int:
        return 0

    def _persona(self, conv: Conversation) -> str:
        """The user's style for this conversation, drawn once from its seed."""
        if conv.decided.persona is None:
            conv.decided.persona = conv.spec.rng("wording").choice(PERSONAS).name
        return conv.decided.persona

    async def continuation(self, conv: Conversation) -> str:
        spec = conv.spec
        if spec.kind in ("irrelevance", "abstention") or conv.turn + 1 >= spec.turns:
            return "end"
        return "clarification" if self._asked(conv) else "follow_up"

    # ----- the dependency graph ------------------------------------------------------------------

    def classifier(self) -> Any:
        if not self.classify:
            return None
        return self._classify

    def _classify_payload(self, server: Server, a: Tool, others: Sequence[Tool]) -> dict[str, Any]:
        lines = "\n".join(f"- {b.name} ({b.effect.value}): {b.summary}" for b in others)
        prompt = (f"{CLASSIFY_MARK} of each tool below on the tool {a.name} ({a.effect.value}) of the "
                  f"{server.title} server: {a.summary}\n"
                  "explicit: an output of A is a required input of B; implicit: A must run first to set up "
                  "state B needs; none: no dependency.\n"
                  f"Tools B:\n{lines}\n\n"
                  'Answer with JSON only: {"labels": {"<tool B>": "explicit" | "implicit" | "none"}}')
        payload = self._payload([{"role": "user", "content": prompt}])
        payload["temperature"] = 0
        return payload

    async def prefetch(self, servers: Sequence[Server]) -> None:
        """Ask every classification question concurrently (the graph build then reads the answers)."""
        jobs = []
        for server in servers:
            tools = server.visible_tools
            for a in tools:
                jobs.append(self._classify_payload(server, a, [b for b in tools if b.name != a.name]))
        self._answers = getattr(self, "_answers", {})

        async def one(payload: dict[str, Any]) -> None:
            try:
                self._answers[request_key(payload)] = await self.complete(payload)
            except TeacherError:
                self.stats["bad_classifications"] += 1

        try:
            await asyncio.gather(*(one(p) for p in jobs))
        finally:
            await self.aclose()

    def _classify(self, server: Server, a: Tool, others: Sequence[Tool]) -> dict[str, str]:
        """The paper's LLM classifier: one request per source tool, answered as JSON."""
        payload = self._classify_payload(server, a, others)
        message = getattr(self, "_answers", {}).get(request_key(payload))
        key = request_key({"base_url": self.base_url, **payload})
        if message is None and self.cache is not None:
            message = self.cache.get(key)
        if message is None:
            message = self._sync_complete(payload)
            if message is not None and self.cache is not None:
                self.cache.put(key, message)
        if message is None:
            return {}
        try:
            text = message.get("content") or ""
            start, end = text.find("{"), text.rfind("}")
            labels = json.loads(text[start:end + 1]).get("labels", {})
        except (ValueError, AttributeError):
            self.stats["bad_classifications"] += 1
            return {}
        return {k: v for k, v in labels.items() if isinstance(k, str) and v in LABELS}

    def _sync_complete(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        with httpx.Client(base_url=self.base_url, timeout=self.timeout, headers=self._headers()) as client:
            for attempt in range(self.retries + 1):
                try:
                    self.stats["requests"] += 1
                    r = client.post("/chat/completions", json=payload)
                    if r.status_code == 429 or r.status_code >= 500:
                        continue
                    r.raise_for_status()
                    return r.json()["choices"][0]["message"]
                except (httpx.HTTPError, ValueError, KeyError, IndexError):
                    self.stats["retries"] += 1
                    continue
        return None


def _move(message: dict[str, Any]) -> Move:
    calls = []
    for tc in message.get("tool_calls") or []:
        fn = tc.get("function") if isinstance(tc, dict) else None
        if not isinstance(fn, dict):
            calls.append(Call(None, None))
            continue
        calls.append(Call(fn.get("name"), fn.get("arguments", "{}")))
    content = message.get("content")
    return Move(text=content if isinstance(content, str) else None, calls=calls)
