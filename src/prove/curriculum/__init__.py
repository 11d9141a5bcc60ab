"""Online curriculum: training rewards mark the skills at the policy's boundary, and the synthesis
pipeline writes new verified examples for them while training runs.

- `skills`: what a skill is (server, tool, chain length, dependency depth, kind);
- `stats`: group, example and skill figures, and the boundary rule;
- `buffer`: the bounded buffer and its mixing rule (a cap per skill);
- `generate`: new examples for a skill through `Synthesizer`, validated as offline data is;
- `loop`: `Curriculum`, one `update` per training step, logged as JSONL;
- `report`: the log as an HTML page; `simulate`: a simulated policy to measure it without a model.

    from prove.curriculum import Curriculum, CurriculumConfig, SynthGenerator
    cur = Curriculum(examples, CurriculumConfig(capacity=256),
                     generator=SynthGenerator.from_config(SynthConfig(seed=1)), log="curriculum.jsonl")
    batch = cur.draw(16)                       # entries: .id, .record, .skill
    cur.update([(e.id, rewards_of(e)) for e in batch])

The trainers' hooks are in `prove.integrations.verl.curriculum` and `prove.integrations.trl_curriculum`.
Depends on `prove.synth`, `prove.records` and `prove.env`.
"""

from .buffer import Buffer, Entry
from .config import CurriculumConfig
from .generate import Generated, Generator, SynthGenerator
from .loop import Curriculum, CurriculumError
from .skills import FIELDS, Skill, project, skill_of
from .stats import Group, Tally, group, on_boundary

__all__ = [
    "FIELDS", "Buffer", "Curriculum", "CurriculumConfig", "CurriculumError", "Entry", "Generated", "Generator", "Group", "Skill",
    "SynthGenerator", "Tally", "group", "on_boundary", "project", "skill_of",
]
