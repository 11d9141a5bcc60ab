"""A policy served by any OpenAI-compatible chat-completions endpoint.

vLLM, SGLang, llama.cpp's server, Ollama, TGI and hosted APIs all speak the same protocol:
`POST {base_url}/chat/completions` with `messages` and `tools`, answered by an assistant message
with `content` and, where the server parses tool calls, `tool_calls`. Servers without a tool
parser return the model's Hermes text; `prove.rollout.calls` reads both.
"""

from __future__ import annotations

import ipaddress
import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import httpx2

from ..env import ProveError

__all__ = ["OpenAIPolicy", "Policy", "PolicyError", "Reply", "Sampling"]


class PolicyError(ProveError):
    """The policy's endpoint failed (unreachable, timed out, an HTTP error, a malformed answer)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Reply:
    """One answer of the policy: the assistant message as the endpoint returned it."""

    message: dict[str, Any]
    finish_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


class Policy(Protocol):
    """Anything that answers a conversation: `policy(messages, tools) -> Reply`."""

    def __call__(self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]) -> Reply: ...


@dataclass(frozen=True)
class Sampling:
    """Sampling settings sent with every request (None: the server's default)."""

    temperature: float | None = 0.0
    top_p: float | None = None
    max_tokens: int | None = 1024
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        out = {k: v for k, v in (("temperature", self.temperature), ("top_p", self.top_p),
                                 ("max_tokens", self.max_tokens), ("seed", self.seed)) if v is not None}
        out.update(self.extra)
        return out


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def chat_url(base_url: str) -> str:
    """`{base_url}/chat/completions`, with `/v1` added to a bare host (http://127.0.0.1:8000)."""
    base = base_url.rstrip("/")
    if not urlsplit(base).path:
        base += "/v1"
    return base + "/chat/completions"


_RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAIPolicy:
    """A model behind an OpenAI-compatible endpoint.

    Args:
        base_url: such as 'http://127.0.0.1:8000/v1' (a bare host gets '/v1').
        model: the model name the endpoint serves.
        api_key: sent as a bearer token when given.
        timeout: seconds one request may take (connect, read and write each).
        retries: extra attempts after a connection error, a timeout or a 408/409/429/5xx,
            with exponential backoff and jitter.
        sampling: temperature, top_p, max_tokens, seed and extra body keys.
        tools: `api` sends the tools in the request (the server renders them with the
            model's chat template); `none` sends none (the prompt already describes them).
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, timeout: float = 120.0,
                 retries: int = 2, sampling: Sampling | None = None, tools: str = "api",
                 headers: Mapping[str, str] | None = None) -> None:
        if tools not in ("api", "none"):
            raise ValueError("tools must be 'api' or 'none'")
        self.url = chat_url(base_url)
        self.model = model
        self.retries = retries
        self.sampling = sampling or Sampling()
        self.send_tools = tools == "api"
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if api_key:
            hdrs["Authorization"] = f"Bearer {api_key}"
        # Proxies from the environment must not capture a local server.
        self._http = httpx2.Client(headers=hdrs, timeout=timeout, trust_env=not _loopback(self.url),
                                   limits=httpx2.Limits(max_connections=256, max_keepalive_connections=64))

    def request_body(self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), **self.sampling.body()}
        if tools and self.send_tools:
            body["tools"] = list(tools)
        return body

    def __call__(self, messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]) -> Reply:
        body = self.request_body(messages, tools)
        start = time.monotonic()
        attempt = 0
        while True:
            try:
                response = self._http.post(self.url, content=json.dumps(body, ensure_ascii=False))
            except httpx2.TimeoutException as exc:
                error = PolicyError("timeout", f"{self.url}: no answer in time ({type(exc).__name__})")
            except httpx2.HTTPError as exc:
                error = PolicyError("unreachable", f"{self.url}: {exc}")
            else:
                if response.status_code < 400:
                    return self._reply(response, time.monotonic() - start)
                error = PolicyError(f"http_{response.status_code}",
                                    f"{self.url}: HTTP {response.status_code}: {response.text[:300]}")
                if response.status_code not in _RETRY_STATUS:
                    raise error
            if attempt >= self.retries:
                raise error
            time.sleep(min(8.0, 0.5 * 2 ** attempt) * (0.5 + random.random()))
            attempt += 1

    def _reply(self, response: Any, seconds: float) -> Reply:
        try:
            data = response.json()
            choice = data["choices"][0]
            message = choice["message"]
            if not isinstance(message, dict):
                raise TypeError("message is not an object")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise PolicyError("bad_response", f"{self.url}: not a chat completion: {exc}: "
                                              f"{response.text[:300]}") from exc
        return Reply(message, choice.get("finish_reason"), data.get("usage") or {}, seconds)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> OpenAIPolicy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
