"""The smart home's `on_advance` hook: what happens by itself as an episode's clock moves on."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from prove.env import Ctx
from prove.env.values import iso

from .server import apply_actions, log
from .world import HEAT_RATE_PER_HOUR, WEEKDAYS


def advance(ctx: Ctx, old: datetime, new: datetime) -> None:
    """As the clock moves on, enabled automations run their scenes at their times (skipping
    offline and jammed devices) and thermostats bring their rooms towards the target."""
    _run_automations(ctx, old, new)
    _warm_rooms(ctx, old, new)


def _run_automations(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Run every enabled automation whose time falls in (old, new], in time order."""
    autos = ctx.db.execute("SELECT a.*, s.name AS scene_name FROM automations a JOIN scenes s USING (scene_id) "
                           "WHERE a.enabled = 1").fetchall()
    if not autos:
        return
    due: list[tuple[datetime, str, sqlite3.Row]] = []
    # A scene sets absolute values, so over a long jump only the last two weeks of runs matter.
    day = max(old.date(), new.date() - timedelta(days=14))
    while day <= new.date():
        weekday = WEEKDAYS[day.weekday()]
        for a in autos:
            if weekday not in a["days"].split(","):
                continue
            hh, mm = map(int, a["run_at"].split(":"))
            at = datetime(day.year, day.month, day.day, hh, mm)
            if old < at <= new:
                due.append((at, a["automation_id"], a))
        day += timedelta(days=1)
    due.sort(key=lambda d: (d[0], d[1]))
    for at, automation_id, a in due:
        _, skipped = apply_actions(ctx, a["scene_id"], at)
        ctx.db.execute("UPDATE automations SET last_run_at = ? WHERE automation_id = ?", (iso(at), automation_id))
        note = f" ({len(skipped)} device(s) unreachable)" if skipped else ""
        log(ctx, "automation", f"Automation '{a['name']}' ran the scene '{a['scene_name']}'{note}", at=at)


def _warm_rooms(ctx: Ctx, old: datetime, new: datetime) -> None:
    """Thermostats move the room temperature towards their target at a few degrees an hour."""
    hours = (new - old).total_seconds() / 3600
    step = HEAT_RATE_PER_HOUR * hours
    for t in ctx.db.execute("SELECT device_id, mode, target_temp, current_temp FROM devices "
                            "WHERE type = 'thermostat' AND online = 1 AND mode IN ('heat', 'cool', 'auto')").fetchall():
        target, current = t["target_temp"], t["current_temp"]
        if t["mode"] == "heat" and current >= target or t["mode"] == "cool" and current <= target:
            continue
        moved = min(abs(target - current), step)
        value = current + moved if target > current else current - moved
        ctx.db.execute("UPDATE devices SET current_temp = ? WHERE device_id = ?",
                       (round(value * 2) / 2, t["device_id"]))
