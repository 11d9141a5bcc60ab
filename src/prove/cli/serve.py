"""`prove serve`: every server over MCP (streamable HTTP), or one over stdio."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..env import ProveError
from .datasets import read_dataset
from .output import errors, fail


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    servers: Annotated[list[str] | None, typer.Argument(
        help="Servers to serve (default: every registered one).")] = None,
    host: Annotated[str, typer.Option(help="Address to bind; off loopback a --token is required.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (worker i listens on port + i).")] = 8000,
    workers: Annotated[int, typer.Option(help="Worker processes, one port each, episodes sharded by ID.")] = 1,
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve one server over stdio (desktop MCP clients).")] = False,
    stateless: Annotated[bool, typer.Option(
        "--stateless",
        help='Clients bind every call (_meta "prove/session" or X-Prove-Session); no MCP sessions.')] = False,
    world: Annotated[int, typer.Option("--world", "-s", help="World seed of the episodes MCP sessions open.")] = 0,
    max_sessions: Annotated[int, typer.Option(help="Cap on live episodes per worker.")] = 1024,
    idle_ttl: Annotated[float, typer.Option(help="Seconds an idle episode lives before it is reaped.")] = 600.0,
    handshake_ttl: Annotated[float, typer.Option(
        help="Seconds an MCP session that has bound no episode yet may sit idle.")] = 30.0,
    max_mcp_sessions: Annotated[int, typer.Option(help="Cap on open MCP sessions per endpoint.")] = 10_000,
    log_bytes: Annotated[int, typer.Option(
        help="Bytes of each call's arguments and result an episode's call log keeps.")] = 4096,
    call_timeout: Annotated[float, typer.Option(help="Seconds a tool call may run.")] = 10.0,
    max_request_bytes: Annotated[int, typer.Option(help="Largest accepted request body.")] = 1 << 20,
    token: Annotated[str | None, typer.Option(envvar="PROVE_TOKEN", show_default=False,
                                              help="Bearer token for every route but /healthz.")] = None,
    load: Annotated[list[str] | None, typer.Option(
        "--load", help="Import MODULE[:ATTR] to register more servers (ATTR: a Server or a factory).")] = None,
    openenv: Annotated[bool, typer.Option(
        "--openenv", help="Also speak OpenEnv's protocol: reset/step/state over /ws and /<server>/ws.")] = False,
    dataset: Annotated[Path | None, typer.Option(
        help="With --openenv: the examples an OpenEnv episode plays (a JSONL file or a synth --out directory).")] = None,
    log_level: Annotated[str, typer.Option(help="Python log level.")] = "warning",
) -> None:
    """Serve servers over MCP: /mcp/<server> per server, /mcp for whole episodes, /v1 control plane.

    A plain MCP client's session is its episode (a fresh world); RL clients create sessions on
    the control plane and bind calls with _meta["prove/session"] or X-Prove-Session.
    """
    from ..mcp.config import ConfigError, ServeConfig, load_servers

    logging.basicConfig(level=log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    loads = list(load or [])
    try:
        load_servers(loads)
        config = ServeConfig(servers=tuple(servers or ()), host=host, port=port, stateless=stateless, world=world,
                             max_sessions=max_sessions, idle_ttl=idle_ttl, handshake_ttl=handshake_ttl,
                             max_mcp_sessions=max_mcp_sessions, log_bytes=log_bytes, call_timeout=call_timeout,
                             max_request_bytes=max_request_bytes, token=token, workers=workers).checked()
    except (ConfigError, ProveError) as exc:
        fail(str(exc))
    if dataset is not None and not openenv:
        fail("--dataset is for OpenEnv episodes: add --openenv")
    if openenv and (stdio or workers > 1):
        fail("--openenv serves from one process over HTTP: leave out --stdio and --workers")
    mount = _openenv(dataset, config.servers) if openenv else None
    if stdio:
        if len(config.servers) != 1 or not servers:
            fail("--stdio serves exactly one server: prove serve SERVER --stdio")
        from ..mcp.stdio import serve_stdio

        serve_stdio(config.servers[0], world, call_timeout=call_timeout)
        return
    base = f"http://{'[' + host + ']' if ':' in host else host}"
    ports = f"{port}" if workers == 1 else f"{port}-{port + workers - 1}"
    extra = ", OpenEnv /ws and /<server>/ws" if openenv else ""
    errors.print(f"[bold]prove serve[/]: {', '.join(config.servers)} on {base}:{ports} "
                 f"({'stateless' if stateless else 'MCP sessions are episodes'}; "
                 f"MCP /<server>/mcp, /mcp/<server> and /mcp, control plane /v1{extra}, /healthz, /metrics)")
    if workers > 1:
        from ..mcp.workers import run_workers

        raise typer.Exit(run_workers(config, loads))
    from ..mcp.app import serve as run

    run(config, mount)


def _openenv(dataset: Path | None, served: tuple[str, ...]) -> Callable[[Any], None]:
    """The OpenEnv routes to mount, over the dataset's examples (checked before serving)."""
    import importlib.util

    if importlib.util.find_spec("websockets") is None and importlib.util.find_spec("wsproto") is None:
        fail("--openenv needs a WebSocket implementation for uvicorn: pip install 'prove-rl[openenv]'")
    from ..integrations.openenv import mount

    examples = read_dataset(dataset) if dataset is not None else []
    missing = sorted({s for ex in examples for s in ex.servers} - set(served))
    if missing:
        fail(f"the dataset's examples need servers that are not served: {', '.join(missing)}")
    return mount(examples)
