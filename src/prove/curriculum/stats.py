"""Statistics from group rewards: per group, per example, per skill; and the boundary rule.

A group is the rollouts of one prompt in one step (GRPO's group). Its reward variance is what
GRPO's advantage is made of: a group whose rollouts agree carries no gradient. A skill is at the
policy's boundary when its groups disagree (mean variance at least `min_variance`) or when its
success rate lies in `band` (around 0.5); an example is saturated when it was solved by every
rollout in `retire_after` groups in a row, and stuck when it failed them all `park_after` times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .config import CurriculumConfig

__all__ = ["Group", "Tally", "group", "on_boundary"]


@dataclass(frozen=True)
class Group:
    """One group's rewards: mean, population variance, share of successful rollouts, size."""

    mean: float
    variance: float
    success: float
    n: int


def group(rewards: Sequence[float], success_at: float) -> Group:
    if not rewards:
        raise ValueError("a group needs at least one reward")
    values = [float(r) for r in rewards]
    mean = sum(values) / len(values)
    variance = sum((r - mean) ** 2 for r in values) / len(values)
    return Group(mean, variance, sum(r >= success_at for r in values) / len(values), len(values))


@dataclass
class Tally:
    """Running figures over groups: a plain mean until 1/n is below `decay`, then an exponential one."""

    groups: int = 0
    rollouts: int = 0
    mean: float = 0.0
    variance: float = 0.0
    success: float = 0.0
    solved_run: int = 0   # groups in a row solved by every rollout (to the `saturated` rate)
    failed_run: int = 0   # groups in a row failed by every rollout

    def add(self, g: Group, config: CurriculumConfig) -> None:
        self.groups += 1
        self.rollouts += g.n
        w = max(1.0 / self.groups, config.decay)
        self.mean += w * (g.mean - self.mean)
        self.variance += w * (g.variance - self.variance)
        self.success += w * (g.success - self.success)
        self.solved_run = self.solved_run + 1 if g.success >= config.saturated else 0
        self.failed_run = self.failed_run + 1 if g.success <= 1 - config.saturated else 0

    def to_dict(self) -> dict[str, float | int]:
        return {"groups": self.groups, "rollouts": self.rollouts, "mean": round(self.mean, 6),
                "variance": round(self.variance, 6), "success": round(self.success, 6)}


def on_boundary(t: Tally, config: CurriculumConfig) -> bool:
    """Whether a skill's groups place it at the policy's boundary."""
    if t.groups < config.min_groups:
        return False
    lo, hi = config.band
    return lo <= t.success <= hi or t.variance >= config.min_variance
