"""Grounded synthesis: multi-turn tool-use conversations written against live server state.

Stages (one module each): `graph` (tool dependency graph and chains), `sampler` (live-state
sampling context), `machine` (the conversation state machine), `teachers` (programmatic and
OpenAI-compatible), `perturb` (distractors, stripped enums, irrelevance, hidden tools),
`validate` (replay, failure rate, fingerprint, provenance, grounding, Jaccard dedup),
`writers` (JSONL, VERL Parquet, Hugging Face) and `report`; `pipeline` composes them.

    from prove.synth import SynthConfig, run
    summary = run(SynthConfig(n=200, seed=0), Path("out"))

Depends on `prove.env` and `prove.records` only.
"""

from .config import Rates, SynthConfig
from .contract import Conversation, ConversationSpec, Move, Rejected, Target
from .graph import DependencyGraph, build_graph
from .machine import Machine
from .pipeline import Summary, SynthError, Synthesizer, load_servers, run
from .sampler import Sampler, SamplingContext
from .validate import Deduper, Verdict, check

__all__ = [
    "Conversation", "ConversationSpec", "Deduper", "DependencyGraph", "Machine", "Move", "Rates", "Rejected",
    "Sampler", "SamplingContext", "Summary", "SynthConfig", "SynthError", "Synthesizer", "Target", "Verdict",
    "build_graph", "check", "load_servers", "run",
]
