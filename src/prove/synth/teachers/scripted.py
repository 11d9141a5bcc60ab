"""A scripted OpenAI-compatible server, for tests and benchmarks of the OpenAI teacher offline.

It speaks `POST /v1/chat/completions` (HTTP/1.1, keep-alive) on 127.0.0.1 with an ephemeral
port, from a background thread, and answers with whatever its handler says: a fixed script
(bad answers included: invalid JSON arguments, an unknown tool, an invented entity, a delay past
the client's timeout, an HTTP error) or `oracle`, which plays any server plausibly (it calls a
tool that needs no arguments, then answers in text) after a fixed delay.

    with ScriptedServer(oracle(delay=0.2)) as server:
        teacher = OpenAITeacher("scripted", server.url)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Reply", "ScriptedServer", "oracle", "script"]

# A handler gets the request body and returns a Reply.
Handler = Callable[[dict[str, Any]], "Reply"]


class Reply:
    """One scripted answer: an assistant message (or a raw body / status), after `delay` seconds."""

    def __init__(self, content: str | None = None, tool_calls: list[dict[str, Any]] | None = None, *,
                 delay: float = 0.0, status: int = 200, body: Any = None) -> None:
        self.content = content
        self.tool_calls = tool_calls
        self.delay = delay
        self.status = status
        self.body = body

    @staticmethod
    def call(name: str, arguments: Any, content: str | None = None, delay: float = 0.0) -> Reply:
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return Reply(content, [{"id": "call_0", "type": "function", "function": {"name": name, "arguments": text}}],
                     delay=delay)

    def payload(self, model: str) -> Any:
        if self.body is not None:
            return self.body
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return {"id": "chatcmpl-scripted", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": message,
                             "finish_reason": "tool_calls" if self.tool_calls else "stop"}]}


def _is_query(body: dict[str, Any]) -> bool:
    first = (body.get("messages") or [{}])[0]
    return isinstance(first.get("content"), str) and first["content"].startswith("You write the USER side")


def _is_classify(body: dict[str, Any]) -> bool:
    msgs = body.get("messages") or []
    return len(msgs) == 1 and str(msgs[0].get("content", "")).startswith("Classify the dependency")


_CONTEXT_ID = re.compile(r"\b([A-Z][A-Z0-9]{1,9})-(\d{3,})\b")
_EXAMPLE_ID = re.compile(r"such as '([A-Z][A-Z0-9]{1,9})-\d+'")


def _pick(options: list[Any], *keys: Any) -> Any:
    """A choice that depends on the request only (so a cached rerun asks and gets the same)."""
    digest = hashlib.sha256(json.dumps(keys, sort_keys=True, default=str).encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def oracle(delay: float = 0.0) -> Handler:
    """Plays any server plausibly, after `delay` seconds.

    A user turn asks for help; the assistant answers a user message with one call: a tool whose
    required arguments are all IDs it can take from the live-state context in its system prompt
    (matched by the ID prefix of the parameter's documented example), or a tool without required
    arguments; after a tool result it answers in text.
    """

    def handle(body: dict[str, Any]) -> Reply:
        if _is_classify(body):
            return Reply('{"labels": {}}', delay=delay)
        if _is_query(body):
            topic = _pick(["an overview of my account", "what I have right now", "my latest activity",
                           "the details of my things"], body["messages"][0]["content"][-400:])
            return Reply(f"Can you show me {topic}?", delay=delay)
        messages = body.get("messages") or []
        if not messages or messages[-1].get("role") != "user":
            return Reply("Here is what I found.", delay=delay)
        system = str(messages[0].get("content", ""))
        ids: dict[str, list[str]] = {}
        for prefix, number in _CONTEXT_ID.findall(system):
            ids.setdefault(prefix, []).append(f"{prefix}-{number}")
        options: list[tuple[str, dict[str, Any]]] = []
        for tool in body.get("tools") or []:
            fn = tool["function"]
            params = fn.get("parameters") or {}
            props = params.get("properties") or {}
            args: dict[str, Any] | None = {}
            for name in params.get("required") or []:
                m = _EXAMPLE_ID.search(str(props.get(name, {}).get("description", "")))
                if props.get(name, {}).get("type") != "string" or not m or m.group(1) not in ids:
                    args = None
                    break
                args[name] = _pick(ids[m.group(1)], name, len(messages), system[-200:])
            if args is not None:
                options.append((fn["name"], args))
        if not options:
            return Reply("I can't do that with the tools I have.", delay=delay)
        name, args = _pick(options, len(messages), messages[-1].get("content"), system[-300:])
        return Reply.call(name, args, delay=delay)

    return handle


def script(replies: Iterable[Reply], *, queries: Iterable[str] = (), then: Handler | None = None) -> Handler:
    """Answer assistant requests with `replies` in order, user-turn requests with `queries`, then `then`."""
    pending = list(replies)
    asks = list(queries)
    fallback = then or oracle()
    lock = threading.Lock()

    def handle(body: dict[str, Any]) -> Reply:
        with lock:
            if _is_query(body):
                if asks:
                    return Reply(asks.pop(0))
            elif not _is_classify(body) and pending:
                return pending.pop(0)
        return fallback(body)

    return handle


class ScriptedServer:
    """The server (see the module docstring). `requests` counts the requests answered."""

    def __init__(self, handler: Handler, host: str = "127.0.0.1") -> None:
        self.handler = handler
        self.host = host
        self.port = 0
        self.requests = 0
        self.in_flight = 0
        self.peak = 0
        self.bodies: list[dict[str, Any]] = []
        self.keep_bodies = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def __enter__(self) -> ScriptedServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="scripted-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the scripted server did not start")

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._server = loop.run_until_complete(asyncio.start_server(self._serve, self.host, 0, backlog=1024))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            tasks = list(asyncio.all_tasks(loop))
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                headers: dict[str, str] = {}
                while True:
                    h = await reader.readline()
                    if h in (b"\r\n", b"\n", b""):
                        break
                    k, _, v = h.decode("latin-1").partition(":")
                    headers[k.strip().lower()] = v.strip()
                size = int(headers.get("content-length", "0") or 0)
                raw = await reader.readexactly(size) if size else b""
                method, path = (line.decode("latin-1").split(" ") + ["", ""])[:2]
                if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
                    await self._send(writer, 404, {"error": {"message": f"no route {method} {path}"}})
                    continue
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    await self._send(writer, 400, {"error": {"message": "invalid JSON body"}})
                    continue
                if self.keep_bodies:
                    self.bodies.append(body)
                reply = self.handler(body)
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
                try:
                    if reply.delay:
                        await asyncio.sleep(reply.delay)
                finally:
                    self.in_flight -= 1
                self.requests += 1
                await self._send(writer, reply.status, reply.payload(body.get("model", "scripted")))
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - the peer may be gone already
                pass

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, status: int, payload: Any) -> None:
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
        head = (f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\nConnection: keep-alive\r\n\r\n").encode()
        writer.write(head + data)
        await writer.drain()


def _child(delay: float, conn: Any, stop: Any) -> None:
    with ScriptedServer(oracle(delay)) as server:
        conn.send(server.port)
        stop.wait()
        conn.send((server.requests, server.peak))


class OracleProcess:
    """`oracle(delay)` served from a process of its own (a benchmark's endpoint must not share the GIL).

    `url` while it runs; `requests` and `peak` after `stop()`.
    """

    def __init__(self, delay: float) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._stop = ctx.Event()
        self._proc = ctx.Process(target=_child, args=(delay, child, self._stop), daemon=True)
        self.port = 0
        self.requests = 0
        self.peak = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> OracleProcess:
        self._proc.start()
        if not self._conn.poll(60):
            raise RuntimeError("the scripted server process did not start")
        self.port = self._conn.recv()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self._proc.is_alive():
            self._stop.set()
            if self._conn.poll(10):
                self.requests, self.peak = self._conn.recv()
            self._proc.join(10)
