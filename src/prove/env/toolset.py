"""A toolset: the tools of one area of a server, declared in their own module.

A server's declaration module holds the `Server`, its entity kinds and shared types, and imports
nothing below it. Each tool module declares a `Toolset` and decorates its functions with it; the
server's package includes the toolsets (`server.include(accounts.tools, cards.tools)`), which
builds and checks every tool at import, exactly as `@server.tool` does. No module registers by
being imported back from another.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .annotations import Effect
from .asks import Ask
from .errors import ToolDefinitionError

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["ToolSpec", "Toolset"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool function with what its decorator said; built into a `Tool` when a server includes it."""

    fn: Callable[..., Any]
    effect: Effect
    asks: tuple[str | Ask, ...]
    hidden: bool
    name: str | None
    replies: tuple[str | Ask, ...]
    values: Mapping[str, Sequence[Any]]
    needs: tuple[str, ...]


class Toolset:
    """Tools of one area, declared with `@tools.tool(effect=..., asks=[...])` (see the module doc)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.specs: list[ToolSpec] = []

    def tool(self, fn: F | None = None, *, effect: Effect | None = None, asks: Sequence[str | Ask] = (),
             hidden: bool = False, name: str | None = None, reply: str | Ask | Sequence[str | Ask] = (),
             values: Mapping[str, Sequence[Any]] | None = None, needs: Sequence[str] = ()) -> Callable[[F], F]:
        """Declare a tool; the arguments are those of `Server.tool`."""
        if fn is not None or effect is None:
            raise ToolDefinitionError("use @tools.tool(effect=READ or WRITE, ...), with arguments")

        def declare(func: F) -> F:
            self.specs.append(ToolSpec(func, effect, tuple(asks), hidden, name,
                                       (reply,) if isinstance(reply, (str, Ask)) else tuple(reply),
                                       dict(values or {}), tuple(needs)))
            return func

        return declare

    def __repr__(self) -> str:
        return f"Toolset({self.name!r}, {len(self.specs)} tools)"
