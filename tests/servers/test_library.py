"""The server library holds the paper's servers with at least their tool counts."""

from __future__ import annotations

import pytest

from prove.env import registry

# Agent-visible tools each server must have at least (the paper's counts, 343 in all).
MINIMUM_TOOLS = {
    "banking": 17, "trading": 13, "payments": 10,
    "calendar": 17, "email": 17, "filesystem": 40,
    "shopping": 23, "marketplace": 13, "retail_chain": 11,
    "travel_booking": 20, "maps": 16,
    "social_media": 15, "team_chat": 11,
    "iot_devices": 25, "vehicle": 20,
    "crm": 16, "issue_tracker": 20, "budget": 12,
    "food_delivery": 17, "video_meeting": 10,
}


def test_the_paper_counts_add_up() -> None:
    assert len(MINIMUM_TOOLS) == 20 and sum(MINIMUM_TOOLS.values()) == 343


@pytest.mark.parametrize("name", sorted(MINIMUM_TOOLS))
def test_server_has_its_tools(name: str) -> None:
    assert len(registry.get(name).visible_tools) >= MINIMUM_TOOLS[name]


def test_library_has_at_least_343_visible_tools() -> None:
    total = sum(len(registry.get(name).visible_tools) for name in MINIMUM_TOOLS)
    assert total >= 343, total
