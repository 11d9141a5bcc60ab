"""The reward's settings, with every weight declared in one place.

A component with weight 0 is still computed and reported in the breakdown: a logged metric.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

COMPONENTS: tuple[str, ...] = ("validity", "coverage", "efficiency", "name", "args", "state")


class Weights(BaseModel):
    """Weights of the components in the total (the paper's, plus `state` as a metric)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    validity: float = 0.5
    coverage: float = 0.5
    efficiency: float = 0.15
    name: float = 0.2
    args: float = 0.1
    state: float = 0.0

    def items(self) -> list[tuple[str, float]]:
        return [(c, getattr(self, c)) for c in COMPONENTS]


class Values(BaseModel):
    """How argument values are normalised before they are compared (R_arg)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    numbers: bool = Field(True, description="compare numbers by value across int and float (65 == 65.0)")
    tolerance: float = Field(1e-9, ge=0, description="relative tolerance for numbers (absolute below 1)")
    strip: bool = Field(True, description="ignore whitespace around strings")
    casefold: Literal["enums", "all", "none"] = Field(
        "enums", description="ignore case for parameters with an `enum` in the schema, for all strings, or never")
    numeric_strings: bool = Field(False, description="let '65' equal 65")


class RewardConfig(BaseModel):
    """Everything that shapes the reward.

    Attributes:
        weights: the components' weights.
        alpha: the efficiency penalty's slope.
        beta: the budget's slack: B = n_gt + ceil(n_gt * beta).
        values: how argument values are normalised.
        turns: `causal` (default): the episode's calls are scored against all gold calls, and
            a gold call of user turn t can only be matched by a call made in turn t or later;
            `pooled`: turns are ignored.
        omitted_defaults: a gold argument whose value is the tool's schema default may be left
            out by the model.
        unknown_outcome: how a call whose execution outcome is unknown counts in validity:
            `skip` averages the two levels that can be checked, `pass` and `fail` assume it.
        abstain_score: the total when the gold has no calls and the model makes none (else 0).
        scale: `raw` keeps the weighted sum (best 1.3 with the paper's weights, efficiency being
            at most 0); `unit` divides it by the sum of the positive weights (best 1.0).
        state_collateral: the state component's penalty per changed row the gold did not change,
            relative to the number of rows the gold changed.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    weights: Weights = Field(default_factory=Weights)
    alpha: float = Field(0.5, ge=0)
    beta: float = Field(0.5, ge=0)
    values: Values = Field(default_factory=Values)
    turns: Literal["causal", "pooled"] = "causal"
    omitted_defaults: bool = True
    unknown_outcome: Literal["skip", "pass", "fail"] = "skip"
    abstain_score: float = 1.0
    scale: Literal["raw", "unit"] = "raw"
    state_collateral: float = Field(0.5, ge=0)
    _positive: float = PrivateAttr(1.0)

    def model_post_init(self, context: Any) -> None:
        # Efficiency is at most 0, so its weight never adds to the best score.
        self._positive = sum(w for c, w in self.weights.items() if w > 0 and c != "efficiency") or 1.0

    def best(self, abstain: bool = False) -> float:
        """The highest total a trajectory can get (on an example without gold calls: `abstain`)."""
        if abstain:
            return self.abstain_score
        return 1.0 if self.scale == "unit" else self.positive_sum()

    def positive_sum(self) -> float:
        """The sum of the positive weights but efficiency's (which is at most 0): the raw best."""
        return self._positive
