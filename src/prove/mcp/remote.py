"""`RemoteEnv`: a session on a `prove serve` process, with the interface of `prove.env.Session`.

```python
from prove.mcp import RemoteEnv
with RemoteEnv(["banking"], world=7, url="http://127.0.0.1:8000") as env:
    r = env.call("get_balance", {"account_id": "ACC-10001"})   # a prove.env.ToolResult
    child = env.fork(); snap = env.snapshot(); env.restore(snap)
    env.fingerprint(); env.diff()                                # a prove.env.Diff
    env.mcp_url("banking"), env.mcp_meta                          # for the model's MCP client
```

Code written against `Session` runs against `RemoteEnv`: results, diffs and call logs come
back as the framework's own types, and errors as the framework's exceptions
(`UnknownSessionError`, `PoolFullError`, `UnknownServerError`, `SessionClosedError`).

With several workers (`prove serve --workers N`), pass every worker's URL: an episode lives on
the worker its ID hashes to (`shard`), and its forks are given IDs that hash to the same one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx2

from prove.env import CallRecord, Diff, RowChange, SessionClosedError, ToolResult

from .episodes import SESSION_HEADER, SESSION_META
from .errors import RemoteError, remote_error

DEFAULT_URL = "http://127.0.0.1:8000"


def shard(session_id: str, workers: int) -> int:
    """The worker (0..workers-1) that serves an episode: a stable hash of its ID."""
    digest = hashlib.blake2b(session_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % workers


def worker_urls(url: str, workers: int) -> list[str]:
    """The URLs of `workers` workers listening on consecutive ports from `url`'s."""
    base = httpx2.URL(url)
    port = base.port or (443 if base.scheme == "https" else 80)
    return [str(base.copy_with(port=port + i)).rstrip("/") for i in range(workers)]


def new_id(urls: Sequence[str], index: int | None = None) -> str:
    """A fresh unguessable 128-bit session ID, hashing to worker `index` when given."""
    while True:
        candidate = secrets.token_hex(16)
        if index is None or shard(candidate, len(urls)) == index:
            return candidate


class ControlClient:
    """A thin, thread-safe HTTP client of one worker's control plane."""

    def __init__(self, url: str = DEFAULT_URL, *, token: str | None = None, timeout: float = 60.0) -> None:
        self.url = url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx2.Client(base_url=self.url, headers=headers, timeout=timeout, trust_env=False,
                                   limits=httpx2.Limits(max_connections=256, max_keepalive_connections=64))

    def request(self, method: str, path: str, body: Any = None, params: dict[str, str] | None = None) -> Any:
        try:
            response = self._http.request(method, path, json=body, params=params)
        except httpx2.HTTPError as exc:
            raise RemoteError("unreachable", f"{method} {self.url}{path} failed: {exc}", 0,
                              "Is prove serve running at that address?") from exc
        if response.status_code >= 400:
            try:
                err = response.json()["error"]
                code, message, hint = err["code"], err["message"], err.get("hint")
            except (ValueError, KeyError, TypeError):
                code, message, hint = "http_error", f"HTTP {response.status_code}: {response.text[:200]}", None
            raise remote_error(code, message, response.status_code, hint)
        return response.json()

    def health(self) -> dict[str, Any]:
        return self.request("GET", "/healthz")

    def stats(self) -> dict[str, Any]:
        """The worker's session pool: created, live, in use, reaped, closed, refused."""
        return self.request("GET", "/v1/stats")

    def sessions(self) -> list[str]:
        return self.request("GET", "/v1/sessions")["sessions"]

    def servers(self) -> list[dict[str, Any]]:
        return self.request("GET", "/v1/servers")["servers"]

    def close(self) -> None:
        self._http.close()


@dataclass(frozen=True)
class RemoteSnapshot:
    """A snapshot kept by the server; `RemoteEnv.restore` brings it back."""

    snapshot_id: str
    session_id: str


@dataclass(frozen=True)
class RemoteTool:
    """What a client can know of a served tool (the function itself stays on the server)."""

    name: str
    server: str
    tool: str
    summary: str
    description: str
    parameters: dict[str, Any]
    output_schema: dict[str, Any] | None
    effect: str
    read_only: bool
    hidden: bool
    errors: dict[str, str]
    asks: tuple[str, ...]

    def openai_schema(self, name: str | None = None) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name or self.name, "description": self.description,
                                                 "parameters": self.parameters}}


def _result(body: dict[str, Any]) -> ToolResult:
    if body["ok"]:
        return ToolResult(body["name"], True, body.get("data"))
    return ToolResult(body["name"], False, error=body["error"])


class RemoteEnv:
    """One episode on a remote `prove serve`, driven through its control plane.

    Args:
        servers: server names, as for `Session`.
        world: the world seed.
        url: the server's base URL, or the URLs of all its workers (the episode goes to the one
            its ID hashes to).
        session_id: an ID to use; by default an unguessable 128-bit random hex string.
        token: the server's bearer token, if it has one.
        timeout: seconds to wait for any one request.
    """

    def __init__(self, servers: str | Sequence[str], world: int = 0, *, url: str | Sequence[str] = DEFAULT_URL,
                 session_id: str | None = None, token: str | None = None, timeout: float = 60.0,
                 _client: ControlClient | None = None, _info: dict[str, Any] | None = None) -> None:
        self.urls = [url] if isinstance(url, str) else list(url)
        if not self.urls:
            raise ValueError("RemoteEnv needs at least one URL")
        self._closed = False
        if _info is not None and _client is not None:       # attach / fork
            self._client = _client
            self._set(_info)
            return
        sid = session_id or new_id(self.urls)
        self._client = _client or ControlClient(self.urls[shard(sid, len(self.urls))], token=token, timeout=timeout)
        names = [servers] if isinstance(servers, str) else list(servers)
        self._set(self._client.request("POST", "/v1/sessions", {"servers": names, "world": world, "session_id": sid}))

    @classmethod
    def attach(cls, session_id: str, *, url: str | Sequence[str] = DEFAULT_URL, token: str | None = None,
               timeout: float = 60.0) -> RemoteEnv:
        """A handle on a live remote session (one an MCP client opened, or another process made)."""
        urls = [url] if isinstance(url, str) else list(url)
        client = ControlClient(urls[shard(session_id, len(urls))], token=token, timeout=timeout)
        return cls((), url=urls, _client=client, _info=client.request("GET", f"/v1/sessions/{session_id}"))

    def _set(self, info: dict[str, Any]) -> None:
        self.id: str = info["session_id"]
        self.world: int = info["world"]
        self.mcp_token: str | None = info.get("mcp_token")   # reaches this episode over MCP, nothing else
        self._servers: list[str] = list(info["servers"])

    def _path(self, suffix: str = "") -> str:
        if self._closed:
            raise SessionClosedError(f"session {self.id} is closed")
        return f"/v1/sessions/{self.id}{suffix}"

    @property
    def url(self) -> str:
        """The base URL of the worker that holds this episode."""
        return self._client.url

    @property
    def servers(self) -> list[str]:
        return list(self._servers)

    # ----- what the model's MCP client needs ----------------------------------------------------

    def mcp_url(self, server: str | None = None) -> str:
        """The MCP endpoint to bind to this episode: one server's, or the episode endpoint."""
        return f"{self.url}/mcp/{server}" if server else f"{self.url}/mcp"

    @property
    def mcp_meta(self) -> dict[str, str]:
        """`_meta` that binds an MCP `tools/call` to this episode."""
        return {SESSION_META: self.id}

    @property
    def mcp_headers(self) -> dict[str, str]:
        """HTTP headers that bind every MCP request of a client to this episode (its episode
        token included: the model's client needs no control-plane token, and reaches no other)."""
        headers = {SESSION_HEADER: self.id}
        if self.mcp_token:
            headers["Authorization"] = f"Bearer {self.mcp_token}"
        return headers

    # ----- the Session interface ------------------------------------------------------------------

    def tools(self, include_hidden: bool = False) -> dict[str, RemoteTool]:
        """The tools of this episode under the names a model calls them by."""
        body = self._client.request("GET", self._path("/tools"), params={"hidden": "1" if include_hidden else "0"})
        return {t["name"]: RemoteTool(**{**t, "asks": tuple(t["asks"])}) for t in body["tools"]}

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The visible tools in OpenAI function-tool form."""
        return [tool.openai_schema(name) for name, tool in self.tools().items()]

    def call(self, name: str, arguments: Any = None) -> ToolResult:
        """Run one tool call. Never raises for anything the caller sent: errors are results."""
        if isinstance(arguments, bytes):
            arguments = arguments.decode("utf-8", "replace")
        return _result(self._client.request("POST", self._path("/calls"), {"name": name, "arguments": arguments}))

    @property
    def now(self) -> datetime:
        """The episode's simulated local time."""
        return datetime.fromisoformat(self._client.request("GET", self._path())["now"])

    @property
    def log(self) -> list[CallRecord]:
        """The episode's call log."""
        calls = self._client.request("GET", self._path("/log"))["calls"]
        return [CallRecord(c["index"], c["name"], c["server"], c["arguments"], _result(c["result"])) for c in calls]

    def advance(self, delta: timedelta | float) -> datetime:
        """Move the simulated clock forward (`delta` in seconds or as a timedelta)."""
        seconds = delta.total_seconds() if isinstance(delta, timedelta) else float(delta)
        if seconds < 0:
            raise ValueError("the simulated clock only moves forward")
        return datetime.fromisoformat(self._client.request("POST", self._path("/advance"), {"seconds": seconds})["now"])

    def fingerprint(self) -> str:
        return self._client.request("GET", self._path("/fingerprint"))["fingerprint"]

    def snapshot(self) -> RemoteSnapshot:
        body = self._client.request("POST", self._path("/snapshots"))
        return RemoteSnapshot(body["snapshot_id"], self.id)

    def restore(self, snapshot: RemoteSnapshot) -> None:
        if snapshot.session_id != self.id:
            raise ValueError(f"snapshot {snapshot.snapshot_id} belongs to session {snapshot.session_id}, not {self.id}")
        self._client.request("POST", self._path("/restore"), {"snapshot_id": snapshot.snapshot_id})

    def reset(self) -> None:
        """Back to the initial world: state, clock and call log."""
        self._client.request("POST", self._path("/reset"))

    def fork(self, session_id: str | None = None) -> RemoteEnv:
        """An independent copy of this episode as it is now, on the same worker."""
        index = self.urls.index(self.url) if self.url in self.urls else None
        child_id = session_id or new_id(self.urls, index if len(self.urls) > 1 else None)
        info = self._client.request("POST", self._path("/fork"), {"session_id": child_id})
        return RemoteEnv((), url=self.urls, _client=self._client, _info=info)

    def diff(self, other: RemoteEnv | RemoteSnapshot | None = None) -> Diff:
        """Row-level changes from `other` (default: the initial world) to this episode."""
        params: dict[str, str] = {}
        if isinstance(other, RemoteEnv):
            if other.url != self.url:
                raise ValueError("both episodes of a diff must live on the same worker")
            params["against"] = other.id
        elif isinstance(other, RemoteSnapshot):
            params["against"] = other.snapshot_id
        elif other is not None:
            raise TypeError(f"diff against a RemoteEnv or a RemoteSnapshot, not {type(other).__name__}")
        body = self._client.request("GET", self._path("/diff"), params=params)
        return Diff([RowChange(c["server"], c["table"], c["op"], c["key"], c["before"], c["after"])
                     for c in body["changes"]])

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close the remote session. Idempotent; a session already reaped counts as closed."""
        if self._closed:
            return
        try:
            self._client.request("DELETE", self._path())
        except RemoteError as exc:
            if exc.code != "unknown_session":
                raise
        finally:
            self._closed = True

    def __enter__(self) -> RemoteEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RemoteEnv({self.id[:8]}…, servers={self._servers}, world={self.world}, url={self.url!r})"
