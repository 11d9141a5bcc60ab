"""PROVE tools and results in MCP's shapes: our own schemas, verbatim, never re-derived."""

from __future__ import annotations

import json
from typing import Any

from prove.env import Tool, ToolResult


def mcp_tool(tool: Tool, name: str | None = None) -> dict[str, Any]:
    """One entry of `tools/list`: the framework's input and output schemas as they are.

    `readOnlyHint` comes from the tool's declared effect. Every PROVE tool acts only on the
    episode's simulated world, so `openWorldHint` is false.
    """
    entry: dict[str, Any] = {
        "name": name or tool.name,
        "description": tool.description,
        "inputSchema": tool.parameters,
        "annotations": {"readOnlyHint": tool.read_only, "openWorldHint": False},
    }
    if tool.output_schema is not None:
        entry["outputSchema"] = tool.output_schema
    return entry


def structured(result: ToolResult) -> dict[str, Any]:
    """`structuredContent` is a JSON object: the result itself, `{"result": value}` for a
    value that is not an object, or `{"error": {code, message, hint}}`."""
    body = result.content
    return body if isinstance(body, dict) else {"result": body}


def call_result(result: ToolResult) -> dict[str, Any]:
    """A `CallToolResult`: the JSON text the model reads, the same body structured, `isError`."""
    body = result.content
    return {
        "content": [{"type": "text", "text": json.dumps(body, ensure_ascii=False)}],
        "structuredContent": body if isinstance(body, dict) else {"result": body},
        "isError": not result.ok,
    }
