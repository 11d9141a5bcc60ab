"""Settings of a synthesis run: sizes, rates and limits, all in one place (`prove synth --config`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["Rates", "SynthConfig"]


class Rates(BaseModel):
    """Probabilities per example (the paper's values by default)."""

    model_config = ConfigDict(extra="forbid")

    distractors: float = Field(0.40, ge=0, le=1, description="offer 3-8 tools of other servers too")
    distractors_min: int = Field(3, ge=1)
    distractors_max: int = Field(8, ge=1)
    stripped_enums: float = Field(0.30, ge=0, le=1, description="drop `enum` from the schemas shown")
    irrelevance: float = Field(0.05, ge=0, le=1, description="an off-topic request to decline")
    abstention: float = Field(0.04, ge=0, le=1, description="the needed tool is hidden: the assistant says it cannot")
    hidden_lookup: float = Field(0.30, ge=0, le=1,
                                 description="share of clarifications where the lookup tool is hidden")
    complete: float = Field(0.60, ge=0, description="information level: every value given")
    missing: float = Field(0.20, ge=0, description="information level: a required value missing (clarification)")
    minimal: float = Field(0.20, ge=0, description="information level: entities named by label, optional values left out")
    recovery: float = Field(0.12, ge=0, le=1, description="a wrong first attempt and its correction")
    infeasible: float = Field(0.03, ge=0, le=1, description="a request that fails and a graceful give-up")
    third_turn: float = Field(0.35, ge=0, le=1, description="turn decay: chance of a third user turn")

    @model_validator(mode="after")
    def _check(self) -> Rates:
        if self.distractors_min > self.distractors_max:
            raise ValueError("distractors_min is above distractors_max")
        if self.complete + self.missing + self.minimal <= 0:
            raise ValueError("the information levels need a positive total")
        if self.irrelevance + self.abstention > 1:
            raise ValueError("irrelevance + abstention exceed 1")
        return self


class SynthConfig(BaseModel):
    """A synthesis run. The same config and seed give byte-identical output."""

    model_config = ConfigDict(extra="forbid")

    n: int = Field(200, ge=1, description="accepted examples to write")
    seed: int = 0
    servers: list[str] = Field(default_factory=list, description="empty: every registered server that loads")
    teacher: str = "programmatic"
    ungrounded: bool = False
    worlds: int = Field(4, ge=1, description="world seeds 0..worlds-1, one per context block in turn")
    refresh: int = Field(50, ge=1, description="k: conversations per sampling context (per server)")
    per_kind: int = Field(8, ge=1, description="entities of each kind in a sampling context")
    chain_min: int = Field(2, ge=1)
    chain_max: int = Field(5, ge=1)
    shard_size: int = Field(250, ge=1, description="candidate examples per shard (the unit of resume)")
    max_failure_rate: float = Field(0.30, ge=0, le=1, description="validation: failing share of calls allowed")
    dedup: float = Field(0.70, ge=0, le=1, description="Jaccard threshold on call sequences (1 disables)")
    max_turns: int = Field(3, ge=1)
    max_steps: int = Field(10, ge=1)
    max_regenerations: int = Field(3, ge=0)
    max_candidates: float = Field(3.0, ge=1, description="give up after n * this many candidates")
    rates: Rates = Field(default_factory=Rates)
    cross_server: float = Field(0.0, ge=0, le=1, description="share of candidates on several bridged servers at once")
    teacher_options: dict[str, Any] = Field(default_factory=dict, description="concurrency, timeout, retries...")

    @model_validator(mode="after")
    def _check(self) -> SynthConfig:
        if self.chain_min > self.chain_max:
            raise ValueError("chain_min is above chain_max")
        return self

    def identity(self) -> dict[str, Any]:
        """What decides the content of shards (not `n`: a larger n continues the same stream)."""
        data = self.model_dump(mode="json")
        data.pop("n")
        if not data["cross_server"]:  # (runs from before cross-server synthesis keep their identity)
            data.pop("cross_server")
        data.get("teacher_options", {}).pop("concurrency", None)
        return data

    def digest(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]
