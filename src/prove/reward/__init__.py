"""The programmatic reward: validity, coverage, efficiency, tool-name and argument-value components.

    from prove.reward import Scorer, RewardConfig
    scorer = Scorer(examples)                      # prepares each example's gold once
    score = scorer.score({"example_id": "ex-1", "messages": [...]})
    score.total, score.breakdown()

`docs/reward.md` has the definitions and the decisions the paper leaves open.
"""

from ..calls import (
    Call,
    parse_completion,
    parse_json,
    parse_messages,
    parse_text,
    parse_trajectory,
)
from .adapters import compute_score, compute_score_batch, trl_reward
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
from .score import Score, Scorer, score_calls
from .state import Replay, StateScore, compare, replay

__all__ = [
    "COMPONENTS", "CORRUPTIONS", "AuditReport", "Call", "Finding", "Gold", "GoldStep", "Replay", "RewardConfig",
    "Score", "Scorer", "StateScore", "ToolSpec", "Values", "Weights", "align", "argument_values", "audit", "budget",
    "call_validity", "compare", "compute_score", "compute_score_batch", "corruptions", "coverage", "efficiency",
    "name_precision", "parse_completion", "parse_json", "parse_messages", "parse_text", "parse_trajectory",
    "prepare", "replay", "score_calls", "trl_reward", "validity", "value_share",
]
