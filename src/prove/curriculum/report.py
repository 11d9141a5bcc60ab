"""A curriculum's log as one self-contained HTML page (inline SVG, no script, no package).

Cards with the totals; line charts of the boundary size, the share of rollouts on boundary
skills and the mean group reward variance per step, and of examples generated and retired so
far; the buffer's skill mix (by server) at steps along the run; the skills drawn most at the
last step. With a simulation's per-step figures (`prove curriculum simulate`), the skill the
static and the curriculum runs reach, step by step. Bars and colours are the synthesis report's.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..synth.report import PALETTE, hbar, stacked

__all__ = ["lines", "read_log", "render"]


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def read_log(path: Path | str) -> list[dict[str, Any]]:
    """The step records of a curriculum log (JSONL)."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def lines(title: str, series: Mapping[str, Sequence[float | None]], *, width: int = 640, height: int = 220,
          fmt: str = "{:g}") -> str:
    """Line charts over steps (one line per series, the x axis is the step) as an SVG figure."""
    values = [v for s in series.values() for v in s if v is not None]
    n = max((len(s) for s in series.values()), default=0)
    if not values or n < 1:
        return f"<figure><figcaption>{_esc(title)}</figcaption><p class=empty>no data</p></figure>"
    left, right, top, bottom = 56, 16, 12, 44
    lo, hi = min(0.0, min(values)), max(values) or 1.0
    w, h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: float) -> float:
        return top + h - (h * (v - lo) / (hi - lo) if hi > lo else 0)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{_esc(title)}"><style>text{{font:12px sans-serif}}</style>',
             f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="#999"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + h}" stroke="#999"/>']
    for v in (lo, (lo + hi) / 2, hi):
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{_esc(fmt.format(v))}</text>')
    parts.append(f'<text x="{left}" y="{top + h + 16}">1</text>'
                 f'<text x="{left + w}" y="{top + h + 16}" text-anchor="end">{n}</text>'
                 f'<text x="{left + w / 2:.0f}" y="{top + h + 16}" text-anchor="middle" fill="#666">step</text>')
    lx = left
    for k, (name, s) in enumerate(series.items()):
        color = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s) if v is not None)
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6" points="{points}"/>')
        parts.append(f'<rect x="{lx}" y="{height - 14}" width="12" height="12" fill="{color}"/>'
                     f'<text x="{lx + 16}" y="{height - 4}">{_esc(name)}</text>')
        lx += 30 + 7 * len(name)
    parts.append("</svg>")
    return f"<figure><figcaption>{_esc(title)}</figcaption>{''.join(parts)}</figure>"


def render(log: Sequence[Mapping[str, Any]], *, title: str = "PROVE curriculum",
           simulation: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> str:
    """The page for a curriculum log; `simulation` maps run names to their per-step figures (`level`)."""
    last = log[-1] if log else {}
    totals = last.get("totals", {})
    mean_boundary = sum(r["boundary"] for r in log) / len(log) if log else 0.0
    cards = "".join(f"<div class=card><div class=k>{_esc(k)}</div><div class=v>{_esc(v)}</div></div>" for k, v in (
        ("steps", len(log)), ("buffer", last.get("buffer", {}).get("size", 0)),
        ("skills in the buffer", last.get("buffer", {}).get("skills", 0)),
        ("generated", totals.get("generated", 0)), ("retired", totals.get("retired", 0)),
        ("parked", totals.get("parked", 0)), ("evicted", totals.get("evicted", 0)),
        ("mean boundary size", f"{mean_boundary:.1f}")))
    share = [r["boundary_rollouts"] / r["rollouts"] if r.get("rollouts") else None for r in log]
    figs = [lines("Boundary: skills on it", {"boundary skills": [r["boundary"] for r in log]}),
            lines("Rollouts on boundary skills (share) and mean group reward variance",
                  {"share on boundary": share, "mean variance": [r.get("mean_variance") for r in log]},
                  fmt="{:.2f}")]
    running: dict[str, list[float]] = {"generated": [], "retired": [], "parked": [], "evicted": []}
    for r in log:
        for k in running:
            running[k].append(r.get("totals", {}).get(k, 0))
    figs.append(lines("Examples generated and retired so far", running))
    if simulation:
        figs.append(lines("Simulated skill reached (fresh examples)",
                          {name: [s["level"] for s in steps] for name, steps in simulation.items()}, fmt="{:.2f}"))
    marks = sorted({max(1, round(len(log) * k / 8)) for k in range(1, 9)}) if log else []
    mix = {f"step {m}": log[m - 1]["buffer"]["servers"] for m in marks}
    servers = sorted({s for row in mix.values() for s in row})
    figs.append(stacked("Buffer skill mix by server", mix, {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(servers)}))
    drawn = dict(sorted(last.get("drawn", {}).items(), key=lambda kv: (-kv[1], kv[0]))[:20])
    figs.append(hbar("Rollouts per skill at the last step (top 20)", drawn, width=720))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>
<style>
body{{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1380px;color:#222;padding:0 16px}}
h1{{font-size:22px}} .cards{{display:flex;flex-wrap:wrap;gap:10px}}
.card{{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:150px}}
.k{{color:#666;font-size:12px}} .v{{font-size:18px;font-weight:600}}
.grid{{display:flex;flex-wrap:wrap;gap:18px;margin-top:18px}} figure{{margin:0}} figcaption{{font-weight:600;margin:6px 0}}
.empty{{color:#888}}
</style></head><body>
<h1>{_esc(title)}</h1>
<div class=cards>{cards}</div>
<div class=grid>{''.join(figs)}</div>
</body></html>
"""
