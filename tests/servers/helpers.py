"""Shared plumbing of the server behaviour tests: a session fixture and checked calls.

Arguments are passed as a dict, so tools whose parameters are named `code`, `tool` or `session`
are called the same way as any other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from prove.env import Session


def session_fixture(server: str, world: int = 0) -> Any:
    """A pytest fixture named `s`: a fresh `Session(server, world=world)`, closed afterwards.

    Use as `s = session_fixture("banking")` at module level.
    """

    @pytest.fixture(name="s")
    def s() -> Iterator[Session]:
        with Session(server, world=world) as session:
            yield session

    return s


def ok(session: Session, tool: str, args: Mapping[str, Any] | None = None) -> Any:
    """Call a tool that must succeed; return its data."""
    args = dict(args or {})
    result = session.call(tool, args)
    assert result.ok, f"{tool}({args}) failed: {result.error}"
    return result.data


def fails(session: Session, tool: str, code: str | tuple[str, ...],
          args: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Call a tool that must fail with `code` (or one of several codes) and leave the state
    exactly as it was; return the error (`code`, `message`, `hint`)."""
    args = dict(args or {})
    before = session.fingerprint()
    result = session.call(tool, args)
    assert not result.ok, f"{tool}({args}) should fail with {code}, got {result.data}"
    expected = (code,) if isinstance(code, str) else code
    assert result.code in expected, f"{tool}({args}): expected {code}, got {result.error}"
    assert result.error["message"], f"{tool}({args}): an error needs a message"
    assert session.fingerprint() == before, f"failed {tool} changed the state"
    return result.error


def replies_for(server: str, tool: str, args: Mapping[str, Any]) -> list[str]:
    """The reply wordings the teacher may use for a call (an argument left out counts as its
    default, None included)."""
    from prove.env import registry
    from prove.synth.teachers.programmatic import _fitting_replies

    return [r.text for r in _fitting_replies(registry.get(server).tools[tool], dict(args))]
