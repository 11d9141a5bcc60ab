"""New examples for a skill, from the synthesis pipeline.

`SynthGenerator` asks `Synthesizer.example(i, target)` for candidates steered to the skill's
server, first tool, length and kind: the same path every offline candidate takes (plan on the
live state, replay to the recorded fingerprint, the provenance, grounding and faithfulness
checks), then the offline run's Jaccard deduplication against everything already in play. A
candidate whose skill turns out another (the teacher turned a clarification into a plain task,
the chain went deeper) is not kept.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

from ..synth import Deduper, SynthConfig, Synthesizer
from ..synth.validate import call_set
from .skills import Skill, project, skill_of

__all__ = ["Generated", "Generator", "SynthGenerator"]


@dataclass
class Generated:
    """The outcome of asking for one example: the record (None: none of the attempts fit) and why others failed."""

    record: dict[str, Any] | None
    tried: int
    rejected: Counter[str] = field(default_factory=Counter)


class Generator(Protocol):
    """What a curriculum asks of a source of new examples."""

    def prime(self, records: Iterable[Mapping[str, Any]]) -> None:
        """The examples already in play (new ones must not duplicate them)."""

    def generate(self, skill: Skill, attempts: int) -> Generated:
        """One new, validated example of `skill`, trying at most `attempts` candidates."""


class SynthGenerator:
    """New examples from `Synthesizer` candidates steered to a skill (see the module docstring).

    Candidate indices count up from 0 on every call, so the same sequence of requests gives the
    same examples.
    """

    def __init__(self, synthesizer: Synthesizer) -> None:
        self.synth = synthesizer
        self.dedup = Deduper(synthesizer.config.dedup)
        self.index = 0

    @classmethod
    def from_config(cls, config: SynthConfig, *, cache_dir: Path | None = None) -> SynthGenerator:
        return cls(Synthesizer(config, cache_dir=cache_dir))

    def prime(self, records: Iterable[Mapping[str, Any]]) -> None:
        for r in records:
            self.dedup.keep(call_set(r))

    def generate(self, skill: Skill, attempts: int) -> Generated:
        counted = [f.name for f in fields(skill) if getattr(skill, f.name) is not None]
        rejected: Counter[str] = Counter()
        if skill.server not in self.synth.by_name:  # a seed example of a server this run does not load
            rejected["no_server"] += 1
            return Generated(None, 0, rejected)
        target = skill.target()
        for tried in range(1, attempts + 1):
            candidate = self.synth.example(self.index, target)
            self.index += 1
            if candidate.line is None:
                rejected[candidate.info["status"]] += 1
                continue
            record = json.loads(candidate.line)
            if project(skill_of(record), counted) != skill:
                rejected["other_skill"] += 1
                continue
            if not self.dedup.add(candidate.calls):
                rejected["duplicate"] += 1
                continue
            return Generated(record, tried, rejected)
        return Generated(None, attempts, rejected)
