"""Shared console helpers for the CLI: one rich console, JSON printing, clean failures."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

console = Console(highlight=False, emoji=False)
errors = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)  # never break a message mid-line


def print_json(data: Any) -> None:
    """Plain JSON on stdout, for scripts (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def fail(message: str, code: int = 2) -> NoReturn:
    # Escaped: a message is text, and `pip install 'prove-rl[data]'` must keep its `[data]`.
    errors.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)
