"""Teachers: who writes the conversations the state machine runs.

- `programmatic` (default): no model. Plans each conversation on a fork of the live session,
  takes every entity from the sampling context or an earlier tool output, and words the user's
  side from the tools' `asks` phrasings.
- `openai:MODEL@BASE_URL`: any OpenAI-compatible chat-completions endpoint (vLLM, SGLang,
  Ollama, llama.cpp server, hosted APIs), with bounded concurrency, retries, format validation
  with regeneration and an on-disk response cache.
- `reword:MODEL@BASE_URL`: the programmatic plan (the same calls and results), with its user turns
  and replies rewritten by such a model; a rewrite that drops or changes a value the words carry
  is asked again, then the programmatic words stay.

A teacher answers the machine's questions for one conversation at a time (`query`,
`assistant`, `continuation`); each keeps its per-conversation state itself; the protocol is in `synth.contract`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..contract import Teacher

__all__ = ["Teacher", "make_teacher", "parse_teacher"]


def parse_teacher(spec: str) -> tuple[str, dict[str, Any]]:
    """'programmatic', 'openai:MODEL@BASE_URL' or 'reword:MODEL@BASE_URL' -> (kind, options)."""
    spec = (spec or "programmatic").strip()
    if spec == "programmatic":
        return "programmatic", {}
    for kind in ("openai", "reword"):
        if spec.startswith(kind + ":"):
            model, sep, base = spec[len(kind) + 1:].partition("@")
            if not model or not sep or not base:
                raise ValueError(f"teacher {spec!r}: use {kind}:MODEL@BASE_URL, such as "
                                 f"{kind}:Qwen/Qwen3-8B@http://localhost:8000/v1")
            return kind, {"model": model, "base_url": base}
    raise ValueError(f"unknown teacher {spec!r}: use 'programmatic', 'openai:MODEL@BASE_URL' or "
                     "'reword:MODEL@BASE_URL'")


def make_teacher(spec: str, *, cache_dir: Path | None = None, **options: Any) -> Teacher:
    """Build a teacher from its command-line form."""
    kind, parsed = parse_teacher(spec)
    if kind == "programmatic":
        from .programmatic import ProgrammaticTeacher

        return ProgrammaticTeacher()
    if kind == "reword":
        from .reword import RewordTeacher

        return RewordTeacher(parsed["model"], parsed["base_url"], cache_dir=cache_dir, **options)
    from .openai import OpenAITeacher

    return OpenAITeacher(parsed["model"], parsed["base_url"], cache_dir=cache_dir, **options)
