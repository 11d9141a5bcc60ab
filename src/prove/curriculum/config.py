"""Settings of an online curriculum: the buffer, the boundary, retirement and generation, in one place."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .skills import FIELDS

__all__ = ["CurriculumConfig"]


class CurriculumConfig(BaseModel):
    """An online curriculum. The same config, seed examples and reward stream give the same buffer."""

    model_config = ConfigDict(extra="forbid")

    seed: int = 0
    capacity: int = Field(256, ge=1, description="examples the buffer holds (fewer if the seed data cannot fill it)")
    max_share: float = Field(0.10, gt=0, le=1, description="mixing rule: the largest share of the buffer one skill holds")
    skill_by: list[str] = Field(default_factory=lambda: list(FIELDS), description="the skill fields counted")
    success_at: float = Field(0.8, description="a rollout succeeds when its reward is at least this")
    band: tuple[float, float] = Field((0.2, 0.8), description="boundary: a skill's success rate within this band")
    min_variance: float = Field(0.05, ge=0, description="boundary: or its mean group reward variance at least this")
    min_groups: int = Field(2, ge=1, description="groups a skill needs before it can be on the boundary")
    decay: float = Field(0.3, gt=0, le=1, description="weight of the newest group in a running average")
    saturated: float = Field(0.95, gt=0.5, le=1,
                             description="a group is solved at this success rate, failed at 1 - this")
    retire_after: int = Field(1, ge=1, description="solved groups in a row that retire an example")
    park_after: int = Field(2, ge=1, description="failed groups in a row that send an example back to the reserve")
    generate_per_step: int = Field(8, ge=0, description="new examples asked for per step, for boundary skills")
    attempts: int = Field(4, ge=1, description="candidates tried per example asked for")

    @model_validator(mode="after")
    def _check(self) -> CurriculumConfig:
        lo, hi = self.band
        if not 0 <= lo <= hi <= 1:
            raise ValueError("band must be 0 <= low <= high <= 1")
        unknown = set(self.skill_by) - set(FIELDS)
        if unknown:
            raise ValueError(f"unknown skill field(s) {sorted(unknown)}; the fields are {', '.join(FIELDS)}")
        return self

    @property
    def per_skill(self) -> int:
        """The mixing rule's cap: the most examples of one skill in the buffer."""
        return max(1, math.floor(self.max_share * self.capacity))
