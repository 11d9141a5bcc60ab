"""What happens as an episode's clock moves on: autopay bills that come due are paid."""

from __future__ import annotations

from datetime import datetime

from prove.env import Ctx

from .tools_plans import run_autopay


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Pay the autopay bills that came due up to the new time (see tools_plans.run_autopay)."""
    run_autopay(ctx, new.date())
