"""OpenEnv's protocol on `prove serve --openenv`: reset/step/state over a WebSocket, an episode per connection.

OpenEnv's clients (`openenv-core`: `GenericEnvClient`, `MCPToolClient`, typed `EnvClient`s)
open `{base_url}/ws` and exchange JSON messages `{"type": "reset" | "step" | "state" | "close",
"data": {...}}`, answered by `{"type": "observation", "data": {"observation": {...}, "reward":
..., "done": ...}}`, `{"type": "state", "data": {...}}` or `{"type": "error", "data": {"message",
"code"}}`. `prove serve --openenv` answers them at `/ws` (an episode of any served servers) and
at `/<server>/ws` (an episode of that server), so `base_url` is `http://HOST:PORT` or
`http://HOST:PORT/<server>`. Each connection is one episode of the process's pool, listed on the
control plane like any other, under the same leases, caps and timeouts; it is closed when the
connection ends (or reaped after `--idle-ttl` if the client vanishes).

Two kinds of episode, chosen by `reset`:

- **example** (the default when `prove serve --openenv --dataset PATH` serves a dataset):
  `reset(example_id=..., index=..., seed=...)` opens an episode of one example, exactly as
  `prove.gym` does (the same `ProveEnv`, over the pool's episode); a step's action is one
  assistant reply, `{"message": {"role": "assistant", "content": ..., "tool_calls": [...]}}`
  (or the message's own keys, or `{"content": "..."}` with Hermes `<tool_call>` blocks); the
  observation holds the conversation (`messages`), what the step added (`new`), and the reward
  comes when `done`, with its breakdown (`reward_breakdown`) and the trajectory.
- **tools** (`reset(mode="tools", servers=[...], world=N)`, the only kind without a dataset):
  the steps are MCPToolClient's actions, `{"type": "list_tools"}` and `{"type": "call_tool",
  "tool_name": ..., "arguments": {...}}`. A call's `result` is `{"data": body, "is_error":
  bool}` (a tool's error body stays a result, as over MCP); `unknown_tool`, `invalid_arguments`
  and `timeout` are also OpenEnv `error`s (`tool_not_found`, `invalid_args`, `timeout`).

Tested against openenv-core 0.3 (`tests/integrations/test_openenv.py`). The server side needs
only a WebSocket implementation for uvicorn (`websockets`, in the `openenv` extra).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..env import Diff, ProveError, ToolResult
from ..gym import ProveEnv
from ..mcp.app import ServeApp
from ..mcp.episodes import Episodes
from ..mcp.errors import ServeError
from ..records import Example
from ..reward import RewardConfig
from ..rollout import EnvFactory, Limits

__all__ = ["LoopEnv", "OpenEnvConnection", "mount", "routes"]

log = logging.getLogger("prove.openenv")
T = TypeVar("T")

# What OpenEnv calls a framework error of a call (`ToolErrorType`), by PROVE's code.
_TOOL_ERRORS = {"unknown_tool": "tool_not_found", "invalid_arguments": "invalid_args", "timeout": "timeout"}


class LoopEnv:
    """One pooled episode of the serving process, driven from a thread other than the event loop's.

    It has the interface `prove.rollout.Episode` needs (`call`, `advance`, `fingerprint`, `diff`,
    `close`): each operation runs on the loop through `Episodes`, under the episode's gate, lease
    and call timeout, as an MCP call does.
    """

    def __init__(self, episodes: Episodes, loop: asyncio.AbstractEventLoop, session_id: str) -> None:
        self.episodes = episodes
        self.loop = loop
        self.id = session_id
        self.closed = False

    @classmethod
    def factory(cls, episodes: Episodes, loop: asyncio.AbstractEventLoop) -> EnvFactory:
        def open_episode(servers: Sequence[str], world: int) -> LoopEnv:
            session = asyncio.run_coroutine_threadsafe(episodes.create(list(servers), world), loop).result()
            return cls(episodes, loop, session.id)

        return open_episode

    def _wait(self, work: Awaitable[T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()  # type: ignore[arg-type]

    def call(self, name: str, arguments: Any = None) -> ToolResult:
        return self._wait(self.episodes.call(self.id, name, arguments))

    def advance(self, delta: float) -> Any:
        return self._wait(self.episodes.run(self.id, lambda s: s.advance(delta)))

    def fingerprint(self) -> str:
        return self._wait(self.episodes.run(self.id, lambda s: s.fingerprint(), timeout=60))

    def diff(self) -> Diff:
        return self._wait(self.episodes.run(self.id, lambda s: s.diff(), timeout=60))

    def tools(self) -> list[dict[str, Any]]:
        """The episode's visible tools, as MCPToolClient reads them (name, description, input_schema)."""
        schemas = self._wait(self.episodes.run(self.id, lambda s: s.tool_schemas()))
        return [{"name": t["function"]["name"], "description": t["function"].get("description", ""),
                 "input_schema": t["function"].get("parameters") or {"type": "object"}} for t in schemas]

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self._wait(self.episodes.close(self.id))
        except ServeError as exc:
            if exc.code != "unknown_session":      # reaped already: nothing to close
                raise


def _observation(observation: dict[str, Any], reward: float | None = None, done: bool = False) -> dict[str, Any]:
    return {"observation": {**observation, "metadata": {}}, "reward": reward, "done": done}


class OpenEnvConnection:
    """What one WebSocket connection does: its episode and the answers to its messages.

    Runs on a thread of its own (its episode's operations go to the loop through `LoopEnv`).

    Args:
        episodes: the serving process's episodes.
        loop: the serving process's event loop.
        server: the server of `/<server>/ws`, or None for `/ws`.
        examples: the served dataset (those of `server` on `/<server>/ws`), if any.
        config: the reward settings.
        limits: the caps of an example's episode.
    """

    def __init__(self, episodes: Episodes, loop: asyncio.AbstractEventLoop, server: str | None,
                 examples: Sequence[Example] = (), config: RewardConfig | None = None,
                 limits: Limits | None = None) -> None:
        self.episodes = episodes
        self.server = server
        self.factory = LoopEnv.factory(episodes, loop)
        self.examples = [ex for ex in examples if server is None or server in ex.servers]
        self.config = config
        self.limits = limits
        self.gym: ProveEnv | None = None
        self.tools_env: LoopEnv | None = None
        self.steps = 0

    def reset(self, data: Mapping[str, Any]) -> dict[str, Any]:
        self.close()
        self.steps = 0
        mode = data.get("mode") or ("example" if self.examples else "tools")
        if mode == "example":
            if not self.examples:
                raise ValueError("this server serves no dataset (prove serve --openenv --dataset PATH) "
                                 f"{'with examples of ' + self.server if self.server else ''}: "
                                 "reset with mode='tools'")
            if self.gym is None:
                self.gym = ProveEnv(self.examples, config=self.config, limits=self.limits, env=self.factory)
            options = {k: data[k] for k in ("example_id", "index") if data.get(k) is not None}
            seed = data.get("seed")
            obs, info = self.gym.reset(seed=int(seed) if seed is not None else None, options=options)
            out = {"messages": obs, "tool_schemas": info["tools"], "example_id": info["example_id"],
                   "servers": info["servers"], "world": info["world"], "kind": info["kind"],
                   "episode_id": self._episode_id()}
            done = self.gym.episode is not None and self.gym.episode.done
            return _observation(out, info["reward"]["score"] if done else None, done)
        if mode != "tools":
            raise ValueError(f"mode is 'example' or 'tools', not {str(mode)[:40]!r}")
        servers = [self.server] if self.server else list(data.get("servers") or self.episodes.servers)
        world = int(data.get("world") if data.get("world") is not None else self.episodes.config.world)
        self.tools_env = self.factory(servers, world)
        return _observation({"episode_id": self.tools_env.id, "servers": servers, "world": world})

    def step(self, action: Mapping[str, Any]) -> dict[str, Any]:
        if self.tools_env is not None:
            self.steps += 1
            return self._tool_step(self.tools_env, action)
        if self.gym is None or self.gym.episode is None:
            raise ValueError("send reset first")
        if action.get("type") == "list_tools":
            tools = [{"name": t["function"]["name"], "description": t["function"].get("description", ""),
                      "input_schema": t["function"].get("parameters") or {}} for t in self.gym.episode.script.tools]
            return _observation({"tools": tools})
        if action.get("type") == "call_tool":
            raise ValueError("an example's episode takes assistant messages ({'message': {...}}), which it "
                             "scores; call_tool is for mode='tools'")
        message = action.get("message", {k: v for k, v in action.items() if k != "type"})
        if isinstance(message, Mapping) and not message:
            raise ValueError("a step's action is an assistant message: {'message': {'role': 'assistant', ...}}")
        self.steps += 1
        obs, reward, terminated, truncated, info = self.gym.step(message)
        out = {"messages": obs, "new": info["new"], "step": info["step"], "example_id": info["example_id"],
               "episode_id": self._episode_id()}
        done = terminated or truncated
        if done:
            out.update(status=info["status"], truncated=truncated, reward_breakdown=info["reward"],
                       trajectory=info["trajectory"])
        return _observation(out, reward, done)

    def _tool_step(self, env: LoopEnv, action: Mapping[str, Any]) -> dict[str, Any]:
        kind = action.get("type")
        if kind == "list_tools":
            return _observation({"tools": env.tools()})
        if kind != "call_tool":
            raise ValueError("a tools episode takes {'type': 'list_tools'} or {'type': 'call_tool', "
                             f"'tool_name': ..., 'arguments': {{...}}}}, not type {str(kind)[:40]!r}")
        name = action.get("tool_name")
        try:
            result = env.call(name, action.get("arguments") or {})
        except ServeError as exc:
            if exc.code not in _TOOL_ERRORS:
                raise
            body = {"error": {"code": exc.code, "message": exc.message, "hint": exc.hint}}
            return _observation({"tool_name": name, "result": {"data": body, "is_error": True},
                                 "error": {"error_type": _TOOL_ERRORS[exc.code], "message": exc.message}})
        body = result.data if result.ok else {"error": result.error}
        error = None
        if not result.ok and result.code in _TOOL_ERRORS:
            error = {"error_type": _TOOL_ERRORS[result.code], "message": str((result.error or {}).get("message"))}
        return _observation({"tool_name": name, "result": {"data": body, "is_error": not result.ok}, "error": error})

    def _episode_id(self) -> str | None:
        handle = self.gym.handle if self.gym is not None else None
        return handle.id if isinstance(handle, LoopEnv) else None

    def state(self) -> dict[str, Any]:
        if self.tools_env is not None:
            return {"episode_id": self.tools_env.id, "step_count": self.steps, "mode": "tools"}
        out: dict[str, Any] = {"episode_id": self._episode_id(), "step_count": self.steps, "mode": "example"}
        if self.gym is not None and self.gym.episode is not None:
            out.update(example_id=self.gym.episode.script.example_id, status=self.gym.episode.status)
        return out

    def close(self) -> None:
        """Close the episode in progress (an example's, unscored)."""
        if self.gym is not None:
            self.gym.close()
        if self.tools_env is not None:
            env, self.tools_env = self.tools_env, None
            env.close()


def _error(message: str, code: str, hint: str | None = None) -> str:
    data: dict[str, Any] = {"message": message, "code": code}
    if hint:
        data["hint"] = hint
    return json.dumps({"type": "error", "data": data})


def routes(app: ServeApp, examples: Sequence[Example] = (), *, config: RewardConfig | None = None,
           limits: Limits | None = None, threads: int = 64) -> list[BaseRoute]:
    """The WebSocket routes of OpenEnv's protocol: `/ws` and `/<server>/ws`."""
    executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="prove-openenv")
    examples = list(examples)

    async def endpoint(websocket: WebSocket) -> None:
        server = websocket.path_params.get("server")
        if server is not None and server not in app.episodes.servers:
            await websocket.close(code=1008, reason=f"unknown_server: no server {server[:60]!r} is served")
            return
        await websocket.accept()
        loop = asyncio.get_running_loop()
        conn = OpenEnvConnection(app.episodes, loop, server, examples, config, limits)

        async def offload(fn: Callable[..., T], *args: Any) -> T:
            return await loop.run_in_executor(executor, fn, *args)

        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    message = json.loads(raw)
                    if not isinstance(message, dict):
                        raise ValueError("a message is a JSON object")
                except ValueError as exc:
                    await websocket.send_text(_error(f"Invalid JSON: {exc}", "INVALID_JSON"))
                    continue
                kind = message.get("type")
                data = message.get("data") if isinstance(message.get("data"), dict) else {}
                try:
                    if kind == "reset":
                        reply = {"type": "observation", "data": await offload(conn.reset, data)}
                    elif kind == "step":
                        reply = {"type": "observation", "data": await offload(conn.step, data)}
                    elif kind == "state":
                        reply = {"type": "state", "data": await offload(conn.state)}
                    elif kind == "close":
                        break
                    else:
                        await websocket.send_text(_error(f"Unknown message type: {str(kind)[:40]}", "UNKNOWN_TYPE"))
                        continue
                except ServeError as exc:
                    await websocket.send_text(_error(exc.message, exc.code, exc.hint))
                    continue
                except (ValueError, TypeError, KeyError, ProveError) as exc:
                    await websocket.send_text(_error(str(exc), "VALIDATION_ERROR"))
                    continue
                await websocket.send_text(json.dumps(reply, ensure_ascii=False))
        except WebSocketDisconnect:
            pass
        finally:
            try:
                await offload(conn.close)
            except ProveError as exc:
                log.warning("could not close an OpenEnv connection's episode: %s", exc)
        if websocket.client_state == WebSocketState.CONNECTED:    # not when the client closed it first
            try:
                await websocket.close()
            except (RuntimeError, WebSocketDisconnect):
                pass    # it went away meanwhile

    return [WebSocketRoute("/ws", endpoint), WebSocketRoute("/{server}/ws", endpoint)]


def mount(examples: Sequence[Example] = (), *, config: RewardConfig | None = None,
          limits: Limits | None = None) -> Callable[[ServeApp], None]:
    """What `prove serve --openenv` gives `prove.mcp.serve`: add the OpenEnv routes to the app."""

    def add(app: ServeApp) -> None:
        app.mount(routes(app, examples, config=config, limits=limits))

    return add
