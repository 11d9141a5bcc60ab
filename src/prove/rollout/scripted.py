"""A scripted model server: the OpenAI chat-completions protocol on loopback, with scripted answers.

It is not a model. It answers each request from a script chosen by the conversation's first
user message, at the position given by how many assistant messages the conversation already
holds, so it is stateless and serves concurrent episodes. It exists to test the rollout
runner, the trainers' adapters and a whole `prove eval` without a GPU, and to check a pipeline
end to end: `oracle(examples)` replays each example's reference conversation, which must earn
the reward's best score.

A step of a script is a dict:

- `{"calls": [{"name": ..., "arguments": {...}}, ...], "content": "..."}`: tool calls, in
  native `tool_calls` form or as Hermes `<tool_call>` text (the server's `form`, or the step's
  own `"form": "native" | "hermes"`); `arguments` given as a string is sent as written (a
  malformed call);
- `{"content": "..."}`: a plain answer (which may hold hand-written `<tool_call>` text);
- `"delay": seconds` (with either): wait before answering (a timeout, seen from the client);
- `{"status": 503}`: answer with that HTTP error.

Past the end of its script (or with no script), the server answers "Done.".

    with ScriptedServer(ScriptedModel(oracle(examples))) as server:
        policy = OpenAIPolicy(server.url, "scripted")

`POST /v1/completions` answers a raw ChatML prompt (`<|im_start|>user ...`) the same way, in
Hermes text: what a trainer that generates from token ids asks for.

`python -m prove.rollout.scripted DATASET [--form hermes] [--port 0]` serves the oracle of a
dataset until interrupted.
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..records import Example, content_text
from .calls import render_hermes

__all__ = ["ScriptedModel", "ScriptedServer", "chatml_turns", "oracle"]

Step = Mapping[str, Any]
_FINAL: Step = {"content": "Done."}
_CHATML = re.compile(r"<\|im_start\|>(\w+)\n(.*?)(?:<\|im_end\|>|\Z)", re.S)


def oracle(examples: Iterable[Example], *, form: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Scripts that replay each example's reference conversation (its assistant messages, in order).

    `form` forces every step into `native` or `hermes`; by default the server's form is used.
    """
    scripts: dict[str, list[dict[str, Any]]] = {}
    for ex in examples:
        messages = [m.model_dump(mode="json", exclude_none=True) for m in ex.messages]
        first = next((m for m in messages if m["role"] == "user"), None)
        if first is None:
            continue
        steps = []
        for m in messages:
            if m["role"] != "assistant":
                continue
            step: dict[str, Any] = {}
            if m.get("tool_calls"):
                step["calls"] = [{"name": tc["function"]["name"],
                                  "arguments": _arguments(tc["function"].get("arguments"))} for tc in m["tool_calls"]]
            if m.get("content"):
                step["content"] = content_text(m["content"])
            if form:
                step["form"] = form
            steps.append(step or dict(_FINAL))
        scripts[content_text(first["content"])] = steps
    return scripts


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw if raw is not None else {}


def chatml_turns(prompt: str) -> tuple[str | None, int]:
    """(first user message, assistant turns already taken) of a ChatML prompt.

    User messages that only carry `<tool_response>` blocks are tool results, not user turns;
    the open `<|im_start|>assistant` at the end (the generation prompt) is not a taken turn.
    """
    first = None
    assistants = 0
    for role, body in _CHATML.findall(prompt):
        if role == "user" and first is None and not body.lstrip().startswith("<tool_response>"):
            first = body.strip()
        elif role == "assistant" and body.strip():
            assistants += 1
    return first, assistants


class ScriptedModel:
    """Scripts keyed by the first user message; `answer` picks the step for a conversation.

    Args:
        scripts: {first user message: [step, ...]}.
        form: how calls are sent unless a step says otherwise: `native` or `hermes`.
        default: the script of a conversation whose first user message has none (default: [] —
            the final answer at once).
    """

    def __init__(self, scripts: Mapping[str, Sequence[Step]] | None = None, *, form: str = "native",
                 default: Sequence[Step] = ()) -> None:
        if form not in ("native", "hermes"):
            raise ValueError("form must be 'native' or 'hermes'")
        self.scripts = {k.strip(): list(v) for k, v in (scripts or {}).items()}
        self.form = form
        self.default = list(default)

    def step(self, first_user: str | None, position: int) -> Step:
        script = self.scripts.get((first_user or "").strip(), self.default)
        return script[position] if position < len(script) else _FINAL

    def for_messages(self, messages: Sequence[Mapping[str, Any]]) -> Step:
        first = next((content_text(m.get("content")) for m in messages if m.get("role") == "user"), None)
        position = sum(1 for m in messages if m.get("role") == "assistant")
        return self.step(first, position)

    def message(self, step: Step, call_prefix: str) -> dict[str, Any]:
        """The assistant message of a step, in the step's form."""
        calls = list(step.get("calls") or [])
        content = step.get("content")
        if not calls:
            return {"role": "assistant", "content": content if content is not None else ""}
        if step.get("form", self.form) == "hermes":
            return {"role": "assistant", "content": render_hermes(calls, content)}
        tool_calls = []
        for k, call in enumerate(calls):
            args = call.get("arguments", {})
            tool_calls.append({"id": f"{call_prefix}_{k}", "type": "function",
                               "function": {"name": call.get("name", ""),
                                            "arguments": args if isinstance(args, str) else json.dumps(args)}})
        return {"role": "assistant", "content": content, "tool_calls": tool_calls}


class ScriptedServer:
    """A `ScriptedModel` served over HTTP on loopback (an ephemeral port by default).

    `url` is the base URL to give a client ('http://127.0.0.1:PORT/v1'); `requests` holds every
    request body received, in order (tests inspect what was sent).
    """

    def __init__(self, model: ScriptedModel, *, host: str = "127.0.0.1", port: int = 0,
                 name: str = "scripted") -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the scripted server binds to loopback only")
        self.model = model
        self.name = name
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer((host, port), _handler(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedServer:
        if self._thread is None:
            self._thread = threading.Thread(target=self._httpd.serve_forever, name="prove-scripted-model",
                                            kwargs={"poll_interval": 0.05}, daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(10)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- answers -----------------------------------------------------------------------------------

    def _record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages")
        if not isinstance(messages, list):
            return 400, {"error": {"message": "`messages` must be a list", "type": "invalid_request_error"}}
        step = self.model.for_messages(messages)
        if "status" in step:
            return int(step["status"]), {"error": {"message": "scripted failure", "type": "server_error"}}
        if step.get("delay"):
            time.sleep(float(step["delay"]))
        position = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        message = self.model.message(step, f"call_{position}")
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        prompt_chars = len(json.dumps(messages))
        out_chars = len(json.dumps(message))
        return 200, {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", self.name),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt_chars // 4, "completion_tokens": out_chars // 4,
                      "total_tokens": (prompt_chars + out_chars) // 4},
        }

    def completion(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        prompt = body.get("prompt")
        if isinstance(prompt, list) and prompt and isinstance(prompt[0], str):
            prompt = prompt[0]
        if not isinstance(prompt, str):
            return 400, {"error": {"message": "`prompt` must be text", "type": "invalid_request_error"}}
        first, position = chatml_turns(prompt)
        step = self.model.step(first, position)
        if "status" in step:
            return int(step["status"]), {"error": {"message": "scripted failure", "type": "server_error"}}
        if step.get("delay"):
            time.sleep(float(step["delay"]))
        calls = list(step.get("calls") or [])
        text = render_hermes(calls, step.get("content")) if calls else (step.get("content") or "")
        return 200, {
            "id": f"cmpl-{uuid.uuid4().hex[:12]}", "object": "text_completion", "created": int(time.time()),
            "model": body.get("model", self.name),
            "choices": [{"index": 0, "text": text, "finish_reason": "stop"}],
        }


def _handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):   # the client gave up (a timeout)
                pass

        def do_GET(self) -> None:  # noqa: N802 - the base class's name
            if self.path.rstrip("/") in ("/v1/models", "/models"):
                self._send(200, {"object": "list", "data": [{"id": server.name, "object": "model"}]})
            elif self.path in ("/health", "/healthz"):
                self._send(200, {"status": "ok"})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802 - the base class's name
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
                return
            if not isinstance(body, dict):
                self._send(400, {"error": {"message": "body must be an object", "type": "invalid_request_error"}})
                return
            server._record(body)
            path = self.path.rstrip("/")
            if path.endswith("/chat/completions"):
                self._send(*server.chat(body))
            elif path.endswith("/completions"):
                self._send(*server.completion(body))
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

    return Handler


def main(argv: Sequence[str] | None = None) -> None:
    from ..records import read_examples

    parser = argparse.ArgumentParser(prog="python -m prove.rollout.scripted",
                                     description="Serve a dataset's reference conversations as a scripted "
                                                 "OpenAI-compatible model (not a model: a test double).")
    parser.add_argument("dataset")
    parser.add_argument("--form", choices=["native", "hermes"], default="native")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    with ScriptedServer(ScriptedModel(oracle(read_examples(args.dataset)), form=args.form), port=args.port) as srv:
        print(f"scripted model server (replays {args.dataset}) at {srv.url}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
