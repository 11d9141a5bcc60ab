"""VERL (0.9.x) integration: an agent loop, a stock-loop tool, the reward hook and the export.

- `ProveAgentLoop` (`prove_agent`, in `.agent_loop`): live episodes inside VERL's agent loops.
- `ProveTool` (in `.tool`): a `BaseTool` for VERL's stock `tool_agent` loop.
- `compute_score` (in `.reward`, loaded by VERL by path): the reward from the recorded episode.
- `export.export`: Parquet in VERL's columns, tool and agent-loop configs, a GRPO script.
- `flatten_tool` (in `.schema`): tool schemas in the form VERL's `OpenAIFunctionToolSchema` keeps.
- `CurriculumDataset` (in `.curriculum`, `data.custom_cls`): an online curriculum's buffer as the
  training data, fed each step's rewards.

Only `.agent_loop`, `.tool` and `.curriculum` import VERL (`pip install 'prove-rl[verl]'`); their names are
loaded on first use, so importing this package costs nothing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CurriculumDataset", "ProveAgentLoop", "ProveTool", "compute_score", "flatten_tool"]

_WHERE = {"ProveAgentLoop": ".agent_loop", "ProveTool": ".tool", "compute_score": ".reward", "flatten_tool": ".schema",
          "CurriculumDataset": ".curriculum"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
