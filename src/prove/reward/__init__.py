"""The programmatic reward: validity, coverage, efficiency, tool-name and argument-value components.

    from prove.reward import Scorer, RewardConfig
    scorer = Scorer(examples)                      # prepares each example's gold once
    score = scorer.score({"example_id": "ex-1", "messages": [...]})
    score.total, score.breakdown()

`docs/reward.md` has the definitions and the decisions the paper leaves open. The trainers' hooks
live with their integrations (`prove.integrations.verl.reward.compute_score`,
`prove.integrations.trl.trl_reward`); `RowScorer` is what they share.
"""

from ..calls import (
    Call,
    Calls,
    ParseLimits,
    parse_completion,
    parse_json,
    parse_messages,
    parse_text,
    parse_trajectory,
)
from .audit import CORRUPTIONS, AuditReport, Finding, audit, corruptions
from .components import (
    align,
    argument_values,
    budget,
    call_validity,
    coverage,
    efficiency,
    name_precision,
    validity,
    value_share,
)
from .config import COMPONENTS, RewardConfig, Values, Weights
from .gold import Gold, GoldStep, ToolSpec, prepare
from .rows import RowScorer, row_scorer
from .score import Score, Scorer, score_calls
from .state import Replay, StateScore, compare, replay

__all__ = [
    "COMPONENTS", "CORRUPTIONS", "AuditReport", "Call", "Calls", "Finding", "Gold", "GoldStep", "ParseLimits",
    "Replay", "RewardConfig", "RowScorer", "Score", "Scorer", "StateScore", "ToolSpec", "Values", "Weights", "align",
    "argument_values", "audit", "budget", "call_validity", "compare", "corruptions", "coverage", "efficiency",
    "name_precision", "parse_completion", "parse_json", "parse_messages", "parse_text", "parse_trajectory",
    "prepare", "replay", "row_scorer", "score_calls", "validity", "value_share",
]
