"""Every example episode in examples/ runs through `prove run` and changes the world."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prove.env import registry

from .test_env_commands import prove

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*-episode.jsonl"))


def test_every_server_has_an_example_episode() -> None:
    assert {p.name.split("-episode")[0] for p in EXAMPLES} == set(registry.names())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_episode_runs_and_changes_state(path: Path) -> None:
    server = path.name.split("-episode")[0]
    out = prove("run", server, "--calls", str(path), "--json")
    assert out.returncode == 0, out.stderr
    episode = json.loads(out.stdout)
    calls = [c for c in episode["calls"] if "name" in c]
    assert calls and all(c["ok"] or c["error"]["code"] in registry.get(server).tools[c["name"]].errors
                         for c in calls), [c.get("error") for c in calls]
    assert episode["diff"], "an example episode changes the world"
