"""Helpers for driving the official MCP client from synchronous tests."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable
from typing import Any, TypeVar

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from prove.env import Tool

T = TypeVar("T")
_EXAMPLE = re.compile(r"'([^']{1,60})'")


def run(coro: Awaitable[T], timeout: float = 60.0) -> T:
    """Run a coroutine to completion with a bound on its duration."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


def client(url: str, *, headers: dict[str, str] | None = None, mode: str = "auto") -> Client:
    """The official client over streamable HTTP, optionally with extra headers on every request."""
    if headers is None:
        return Client(url, mode=mode)
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0))
    return Client(streamable_http_client(url, http_client=http), mode=mode)


def text_of(result: Any) -> Any:
    """The JSON body of a tool result's text content."""
    return json.loads(result.content[0].text)


def example_arguments(tool: Tool, entities: dict[str, list[str]]) -> dict[str, Any]:
    """Plausible, deterministic arguments for a tool: required parameters only, entities that
    exist in the world, examples from the docstring, the smallest allowed numbers."""
    props = tool.parameters.get("properties", {})
    args: dict[str, Any] = {}
    for param in tool.params:
        if not param.required:
            continue
        examples = _EXAMPLE.findall(param.description)
        args[param.name] = _value(props.get(param.name, {}), param.entity, entities, examples)
    return args


def _value(schema: dict[str, Any], entity: str | None, entities: dict[str, list[str]], examples: list[str]) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return _value(schema["anyOf"][0], entity, entities, examples)
    kind = schema.get("type")
    if kind == "string":
        if entity and entities.get(entity):
            return entities[entity][0]
        return examples[0] if examples else "example"
    if kind == "integer":
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in schema else 1)
        return int(max(low, 1))
    if kind == "number":
        return float(max(schema.get("minimum", 1.0), schema.get("exclusiveMinimum", 0) + 1.0))
    if kind == "boolean":
        return False
    if kind == "array":
        item = schema.get("items", {})
        return [_value(item, entity, entities, examples)] if schema.get("minItems") else []
    if kind == "object":
        return {k: _value(v, None, entities, []) for k, v in schema.get("properties", {}).items()
                if k in schema.get("required", [])}
    return None
