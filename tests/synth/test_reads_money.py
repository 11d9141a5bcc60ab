"""How requests and replies of the money and shopping servers read, checked on their words."""

from __future__ import annotations

import json
import random
import re

from prove.env import Session, registry
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex
from prove.synth.phrasing import Phrasing
from prove.synth.sampler import Sampler
from prove.synth.teachers.programmatic import _fitting_replies
from prove.synth.wording import Wording

SERVERS = ["banking", "budget", "payments", "marketplace", "trading", "travel_booking", "shopping", "retail_chain",
           "food_delivery"]


def _say(server_name: str, world: int = 0) -> Phrasing:
    server = registry.get(server_name)
    return Phrasing(server, Sampler(server, world, [world]).context(world), EntityIndex(server, world),
                    Wording(random.Random(0)))


def _replies(server_name: str, tool_name: str, args: dict, before: tuple = (), advance: float = 0) -> list[str]:
    """Every reply that fits the call, filled from its result (after the calls of `before`)."""
    server = registry.get(server_name)
    tool = server.tools[tool_name]
    with Session([server], world=0) as session:
        for name, arguments in before:
            assert session.call(name, arguments).ok
        if advance:
            session.advance(advance)
        result = session.call(tool_name, args)
    assert result.ok, result.error
    say = _say(server_name)
    fitting = _fitting_replies(tool, args, result.data)
    assert fitting, (tool_name, result.data)
    return [say.reply(tool, reply.text, args, result.data, {}) for reply in fitting]


def _first(server_name: str, tool_name: str, args: dict, key: str, where=lambda item: True) -> dict:
    """The first item of a listing's result that `where` holds for."""
    with Session([server_name], world=0) as session:
        result = session.call(tool_name, args)
    return next(item for item in result.data[key] if where(item))


def _generated(servers: list[str], n: int, seed: int) -> list[dict]:
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=servers))
    return [json.loads(c.line) for c in (synth.example(i) for i in range(n)) if c.line]


def test_a_resolved_dispute_says_how_it_ended_not_how_it_stands_so_far() -> None:
    """"... is resolved (outcome so far: refunded)" contradicts itself."""
    dispute = _first("banking", "list_disputes", {"status": "resolved"}, "disputes")
    for text in _replies("banking", "get_dispute", {"dispute_id": dispute["dispute_id"]}):
        assert "so far" not in text and f"is resolved: {dispute['resolution']}." in text, text
