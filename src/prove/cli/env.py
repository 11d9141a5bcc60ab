"""`prove servers`, `prove tools`, `prove call`, `prove run`: look at and drive the servers."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.json import JSON
from rich.markup import escape
from rich.table import Table

from ..env import ProveError, Session, ToolResult, registry
from .output import console, fail, print_json

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="World seed: the same seed gives the same world.")]


def register(app: typer.Typer) -> None:
    app.command("servers")(servers)
    app.command("tools")(tools)
    app.command("call")(call)
    app.command("run")(run)


def _server(name: str):  # noqa: ANN202 - returns prove.env.Server
    try:
        return registry.get(name)
    except ProveError as exc:
        fail(str(exc))


def servers(as_json: JsonFlag = False) -> None:
    """List the registered servers with their tool counts."""
    rows = []
    for name in registry.names():
        try:
            server = registry.get(name)
        except ProveError as exc:
            rows.append({"name": name, "title": "", "tools": 0, "read": 0, "write": 0, "hidden": 0,
                         "entities": [], "description": "", "error": str(exc)})
            continue
        visible = server.visible_tools
        rows.append({
            "name": name, "title": server.title, "tools": len(visible),
            "read": sum(t.read_only for t in visible), "write": sum(not t.read_only for t in visible),
            "hidden": len(server.tools) - len(visible), "entities": sorted(server.entities),
            "description": server.description,
        })
    if as_json:
        print_json({"servers": rows, "total_tools": sum(r["tools"] for r in rows)})
        return
    table = Table(title=f"{len(rows)} servers, {sum(r['tools'] for r in rows)} tools")
    for col, style in (("server", "bold cyan"), ("title", ""), ("tools", "bold"), ("read", "green"),
                       ("write", "yellow"), ("hidden", "dim"), ("entities", "dim")):
        table.add_column(col, style=style, justify="left" if col in ("server", "title") else "right")
    for r in rows:
        if "error" in r:
            table.add_row(r["name"], "[red]failed to load[/]", "", "", "", "", "")
            continue
        table.add_row(r["name"], r["title"], str(r["tools"]), str(r["read"]), str(r["write"]),
                      str(r["hidden"]), str(len(r["entities"])))
    console.print(table)
    for r in rows:
        if "error" in r:
            console.print(f"[red]{r['error']}[/]")


def tools(server: Annotated[str, typer.Argument(help="Server name, such as banking.")],
          as_json: JsonFlag = False,
          hidden: Annotated[bool, typer.Option(help="Include hidden (pipeline-only) tools.")] = False) -> None:
    """Show a server's tools: effects, parameters and, with --json, the full schemas."""
    srv = _server(server)
    chosen = [t for t in srv.tools.values() if hidden or not t.hidden]
    if as_json:
        print_json([{**t.openai_schema(), "effect": t.effect.value, "hidden": t.hidden,
                     "asks": [a.as_dict() for a in t.asks], "errors": t.errors, "output_schema": t.output_schema}
                    for t in chosen])
        return
    table = Table(title=f"{srv.title} ({srv.name}): {len(chosen)} tools", show_lines=True)
    table.add_column("tool", style="bold cyan")
    table.add_column("effect")
    table.add_column("parameters")
    table.add_column("errors", style="red")
    table.add_column("summary")
    for t in chosen:
        params = ", ".join(p.name + ("" if p.required else "?") + (" 🔒" if p.sensitive else "") for p in t.params)
        effect = "[green]read[/]" if t.read_only else "[yellow]write[/]"
        table.add_row(t.name + (" [dim](hidden)[/]" if t.hidden else ""), effect, params,
                      ", ".join(t.errors), t.summary)
    console.print(table)


def _show(index: int | None, name: str, arguments: Any, result: ToolResult) -> None:
    prefix = f"[dim]#{index}[/] " if index is not None else ""
    status = "[green]ok[/]" if result.ok else f"[red]error {result.code}[/]"
    shown = escape(json.dumps(arguments, ensure_ascii=False))
    console.print(f"{prefix}[bold]{escape(str(name))}[/] {shown} → {status}")
    console.print(JSON(json.dumps(result.content, ensure_ascii=False)))


def call(server: Annotated[str, typer.Argument(help="Server name, such as banking.")],
         tool: Annotated[str, typer.Argument(help="Tool name, such as get_balance.")],
         args: Annotated[str, typer.Option("--args", "-a", help="Arguments as a JSON object.")] = "{}",
         seed: Seed = 0,
         advance: Annotated[float, typer.Option(help="Seconds to move the simulated clock first.")] = 0,
         as_json: JsonFlag = False) -> None:
    """Run one tool call on a fresh session and show its result or structured error."""
    srv = _server(server)
    try:
        arguments = json.loads(args)
    except ValueError as exc:
        fail(f"--args is not valid JSON: {exc}")
    with Session([srv], world=seed) as session:
        if advance:
            try:
                session.advance(advance)
            except ValueError as exc:
                fail(f"--advance: {exc}")
        result = session.call(tool, arguments)
    if as_json:
        print_json({"ok": result.ok, "result": result.data} if result.ok else {"ok": False, "error": result.error})
    else:
        _show(None, tool, arguments, result)
    if not result.ok:
        raise typer.Exit(1)


def _parse_line(line: str) -> tuple[str, Any] | tuple[None, Any]:
    """One line of a calls file: `{"name": ..., "arguments": {...}}` or `{"advance": seconds}`."""
    step = json.loads(line)
    if not isinstance(step, dict):
        raise ValueError("each line must be a JSON object")
    if "advance" in step:
        return None, step["advance"]
    name = step.get("name", step.get("tool"))
    if not isinstance(name, str):
        raise ValueError('a call needs "name" (a string)')
    return name, step.get("arguments", step.get("args", {}))


def run(servers: Annotated[list[str], typer.Argument(help="Servers of the episode, such as banking calendar.")],
        calls: Annotated[str, typer.Option("--calls", "-c", help="File of calls, one JSON object a line; - for stdin.")] = "-",
        seed: Seed = 0, as_json: JsonFlag = False) -> None:
    """Run a sequence of calls in one episode, then show the episode's diff against its start.

    Each line is {"name": TOOL, "arguments": {...}}; {"advance": SECONDS} moves the simulated
    clock; blank lines and lines starting with # are skipped.
    """
    srvs = [_server(s) for s in servers]
    if calls == "-":
        text = sys.stdin.read()
    else:
        path = Path(calls)
        if not path.is_file():
            fail(f"no such calls file: {calls}")
        text = path.read_text()
    steps: list[dict[str, Any]] = []
    with Session(srvs, world=seed) as session:
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                name, payload = _parse_line(line)
                if name is None:
                    try:
                        now = session.advance(float(payload))
                    except ProveError as exc:
                        raise ValueError(str(exc)) from exc
                    steps.append({"line": lineno, "advance": payload, "now": now.isoformat()})
                    if not as_json:
                        console.print(f"[dim]line {lineno}: clock advanced to {now.isoformat()}[/]")
                    continue
            except (ValueError, TypeError) as exc:
                steps.append({"line": lineno, "ok": False, "error": {"code": "bad_line", "message": str(exc)}})
                if not as_json:
                    console.print(f"[red]line {lineno}: skipped, {exc}[/]")
                continue
            result = session.call(name, payload)
            entry = {"line": lineno, "name": name, "arguments": payload, "ok": result.ok}
            entry.update({"result": result.data} if result.ok else {"error": result.error})
            steps.append(entry)
            if not as_json:
                _show(len(steps), name, payload, result)
        diff = session.diff()
        fingerprint = session.fingerprint()
    if as_json:
        print_json({"servers": servers, "seed": seed, "calls": steps, "diff": diff.to_list(),
                    "fingerprint": fingerprint})
        return
    _show_diff(diff)
    console.print(f"[dim]fingerprint {fingerprint}[/]")


def _show_diff(diff: Any) -> None:
    if not diff:
        console.print("[dim]no state changes[/]")
        return
    table = Table(title=f"episode diff: {len(diff)} rows changed")
    table.add_column("table", style="cyan")
    table.add_column("op")
    table.add_column("key")
    table.add_column("change")
    colours = {"insert": "green", "update": "yellow", "delete": "red"}
    for ch in diff:
        d = ch.to_dict()
        key = ", ".join(f"{k}={v}" for k, v in ch.key.items())
        if ch.op == "update":
            change = "; ".join(f"{c}: {b!r} → {a!r}" for c, (b, a) in d["changes"].items())
        else:
            change = json.dumps(d["row"], ensure_ascii=False)
        table.add_row(f"{ch.server}.{ch.table}", f"[{colours[ch.op]}]{ch.op}[/]", escape(key), escape(change))
    console.print(table)
