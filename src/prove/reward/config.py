"""The reward's settings, with every component and its weight per preset declared in one table.

A component with weight 0 is still computed and reported in the breakdown: a logged metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..calls import Outcomes, ParseLimits

PRESETS: tuple[str, ...] = ("paper", "prove")

# The one table of components: name, weight in `paper`, weight in `prove`, what it measures.
TABLE: tuple[tuple[str, float, float, str], ...] = (
    ("validity", 0.5, 0.5, "the calls are well-formed, offered, typed and succeed"),
    ("coverage", 0.5, 0.5, "the gold calls are matched (name and keys) in dependency order"),
    ("efficiency", 0.15, 0.15, "calls beyond the budget cost; in `prove` every unmatched call too"),
    ("name", 0.2, 0.2, "the calls use gold tool names"),
    ("args", 0.1, 0.3, "the matched calls carry the gold values"),
    ("state", 0.0, 2.0, "the episode leaves the world as the gold calls do (where it was executed)"),
)
COMPONENTS: tuple[str, ...] = tuple(row[0] for row in TABLE)
_PRESET_WEIGHTS = {preset: {row[0]: row[1 + k] for row in TABLE} for k, preset in enumerate(PRESETS)}

_WeightsBase = create_model(  # type: ignore[call-overload]
    "_WeightsBase", __config__=ConfigDict(extra="forbid", frozen=True),
    **{name: (float | None, Field(None, description=what)) for name, _, _, what in TABLE})


class Weights(_WeightsBase):  # type: ignore[misc, valid-type]
    """Weights that replace the preset's (None: the preset's weight); see `TABLE`."""

    def resolve(self, preset: str) -> dict[str, float]:
        """Every component's weight: these where given, else the preset's."""
        base = _PRESET_WEIGHTS[preset]
        return {c: (base[c] if getattr(self, c) is None else float(getattr(self, c))) for c in COMPONENTS}


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
        preset: `prove` (default): the paper's five ideas with their loopholes closed and the
            state component where the episode was executed; `paper`: the paper's formula
            verbatim (docs/reward.md sets them side by side).
        weights: weights replacing the preset's.
        alpha: the efficiency penalty's slope.
        beta: the budget's slack: B = n_gt + ceil(n_gt * beta).
        values: how argument values are normalised.
        outcomes: which tool results are failures (validity's third level).
        parsing: how much of one trajectory is read (calls past the caps count as malformed calls).
        turns: `causal` (default): the episode's calls are scored against all gold calls, and
            a gold call of user turn t can only be matched by a call made in turn t or later;
            `pooled`: turns are ignored.
        omitted_defaults: a gold argument whose value is the tool's schema default may be left
            out by the model.
        unknown_outcome: how a call whose execution outcome is unknown counts in validity:
            `skip` averages the two levels that can be checked, `pass` and `fail` assume it.
        abstain_score: the total when the gold has no calls and the model makes none (else 0).
        scale: `raw` keeps the weighted sum; `unit` divides it by the sum of the positive
            weights of the components computed (best 1.0).
        state_collateral: the state component's penalty per changed row the gold did not change,
            relative to the number of rows the gold changed.
        unmatched_read: `prove`: what an unmatched call to a read tool costs in efficiency, in
            budget units (a call beyond the budget costs 1).
        unmatched_write: `prove`: the same for a write (or a tool of unknown effect), whatever
            the budget.
        state_miss: `prove`: the most the state component gives an episode that does not end in
            the gold's state (one that does gets 1).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: Literal["paper", "prove"] = "prove"
    weights: Weights = Field(default_factory=Weights)
    alpha: float = Field(0.5, ge=0)
    beta: float = Field(0.5, ge=0)
    values: Values = Field(default_factory=Values)
    outcomes: Outcomes = Field(default_factory=Outcomes)
    parsing: ParseLimits = Field(default_factory=ParseLimits)
    turns: Literal["causal", "pooled"] = "causal"
    omitted_defaults: bool = True
    unknown_outcome: Literal["skip", "pass", "fail"] = "skip"
    abstain_score: float = 1.0
    scale: Literal["raw", "unit"] = "raw"
    state_collateral: float = Field(0.5, ge=0)
    unmatched_read: float = Field(0.1, ge=0)
    unmatched_write: float = Field(1.0, ge=0)
    state_miss: float = Field(0.5, le=1)
    # A slot, not a pydantic attribute: read on every score, and absent from a copy made without
    # validation (`model_copy(update=...)`), which then derives its own from its own fields.
    __slots__ = ("_plan",)

    def model_post_init(self, context: Any) -> None:
        object.__setattr__(self, "_plan", Plan.of(self))

    @property
    def plan(self) -> Plan:
        """The settings as plain values for the hot path."""
        try:
            return self._plan  # type: ignore[no-any-return]
        except AttributeError:
            plan = Plan.of(self)
            object.__setattr__(self, "_plan", plan)
            return plan

    @property
    def w(self) -> dict[str, float]:
        """Every component's weight (the preset's, with `weights` applied)."""
        return self.plan.w

    def positive_sum(self, state: bool = False) -> float:
        """The raw best: the positive weights but efficiency's (at most 0), state's only when computed."""
        return self.plan.best_state if state else self.plan.best_raw

    def best(self, abstain: bool = False, state: bool = False) -> float:
        """The highest total a trajectory can get (on an example without gold calls: `abstain`;
        `state`: when the state component is computed)."""
        if abstain:
            return self.abstain_score
        return 1.0 if self.scale == "unit" else self.positive_sum(state)


@dataclass(frozen=True, slots=True)
class Plan:
    """A `RewardConfig` read once into plain values (its attributes cost more on the hot path)."""

    w: dict[str, float]
    prove: bool
    causal: bool
    unit: bool
    best_raw: float  # the positive weights but efficiency's and state's
    best_state: float  # the same with state's
    alpha: float
    beta: float
    unknown: str
    unmatched_read: float
    unmatched_write: float
    abstain_score: float
    values: Values

    @classmethod
    def of(cls, config: RewardConfig) -> Plan:
        w = config.weights.resolve(config.preset)

        def best(state: bool) -> float:
            return sum(v for c, v in w.items() if v > 0 and c != "efficiency" and (state or c != "state")) or 1.0

        return cls(w, config.preset == "prove", config.turns == "causal", config.scale == "unit", best(False),
                   best(True), config.alpha, config.beta, config.unknown_outcome, config.unmatched_read,
                   config.unmatched_write, config.abstain_score, config.values)
