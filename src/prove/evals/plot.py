"""The comparison of two results as one self-contained HTML page (inline SVG, no script, no package).

One row per benchmark and group: the base and new means with their bootstrap intervals on a 0-100%
scale, and beside them the paired difference with its interval around a line at 0 (green when the
interval lies above 0, red when below, grey when it holds 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

__all__ = ["comparison_html"]

_ROW = 34
_LEFT = 230       # labels
_SCALE = 320      # the 0-100% panel
_GAP = 40
_DELTA = 320      # the difference panel


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}"


def _whisker(x0: float, x1: float, y: float, colour: str) -> str:
    return (f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" stroke="{colour}" stroke-width="2"/>'
            f'<line x1="{x0:.1f}" y1="{y - 4:.1f}" x2="{x0:.1f}" y2="{y + 4:.1f}" stroke="{colour}"/>'
            f'<line x1="{x1:.1f}" y1="{y - 4:.1f}" x2="{x1:.1f}" y2="{y + 4:.1f}" stroke="{colour}"/>')


def comparison_html(comparisons: Sequence[Mapping[str, Any]], summaries: Mapping[tuple[str, str], Mapping[str, Any]],
                    *, title: str) -> str:
    """The page for `results.compare_all` output; `summaries[(side, benchmark)]` are the two results' summaries."""
    rows = [(c, g, d) for c in comparisons for g, d in c["groups"].items()]
    span = max([0.05] + [abs(x) for _, _, d in rows for x in (d["ci95"] or [d["delta"] or 0.0])])
    width = _LEFT + _SCALE + _GAP + _DELTA + 20
    height = 60 + _ROW * len(rows)
    x_scale = _LEFT
    x_delta = _LEFT + _SCALE + _GAP
    mid = x_delta + _DELTA / 2

    def sx(v: float) -> float:
        return x_scale + v * _SCALE

    def dx(v: float) -> float:
        return mid + v / span * (_DELTA / 2 - 10)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="{x_scale}" y="16">mean (95% interval), %: '
             '<tspan fill="#888">base</tspan> / <tspan fill="#1f5fbf">new</tspan></text>',
             f'<text x="{x_delta}" y="16">difference new - base (paired 95% interval)</text>',
             f'<line x1="{mid}" y1="26" x2="{mid}" y2="{height - 10}" stroke="#444" stroke-dasharray="3,3"/>']
    for k in range(0, 101, 25):
        parts.append(f'<text x="{sx(k / 100):.1f}" y="{height - 2}" text-anchor="middle" fill="#666">{k}</text>')
    parts.append(f'<text x="{dx(-span):.1f}" y="{height - 2}" fill="#666">{-100 * span:+.1f}</text>')
    parts.append(f'<text x="{dx(span):.1f}" y="{height - 2}" text-anchor="end" fill="#666">{100 * span:+.1f}</text>')
    for i, (comp, group, d) in enumerate(rows):
        y = 44 + i * _ROW
        bench = comp["benchmark"]
        parts.append(f'<text x="8" y="{y + 4}">{escape(bench)} · {escape(group)} (n={d["n"]})</text>')
        for side, colour, off in (("base", "#888", -5), ("new", "#1f5fbf", 5)):
            figures = summaries.get((side, bench), {})
            fig = figures.get("all") if group == "all" else figures.get("categories", {}).get(group)
            if fig and fig.get("ci95"):
                lo, hi = fig["ci95"]
                parts.append(_whisker(sx(lo), sx(hi), y + off, colour))
                parts.append(f'<circle cx="{sx(fig["mean"]):.1f}" cy="{y + off}" r="3.5" fill="{colour}"/>')
        if d["delta"] is not None:
            colour = "#888" if not d["excludes_zero"] else ("#1a8f3a" if d["delta"] > 0 else "#c0392b")
            lo, hi = d["ci95"]
            parts.append(_whisker(dx(lo), dx(hi), y, colour))
            parts.append(f'<circle cx="{dx(d["delta"]):.1f}" cy="{y}" r="4" fill="{colour}"/>')
            parts.append(f'<text x="{width - 8}" y="{y - 8}" text-anchor="end" fill="{colour}">'
                         f'{100 * d["delta"]:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]</text>')
    parts.append("</svg>")
    table = ["<table><tr><th>benchmark</th><th>group</th><th>n</th><th>base %</th><th>new %</th>"
             "<th>delta</th><th>95% interval</th><th>excludes 0</th></tr>"]
    for comp, group, d in rows:
        ci = "–" if not d["ci95"] else f"[{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}]"
        delta = "–" if d["delta"] is None else f"{100 * d['delta']:+.1f}"
        table.append(f"<tr><td>{escape(comp['benchmark'])}</td><td>{escape(group)}</td><td>{d['n']}</td>"
                     f"<td>{_pct(d['base'])}</td><td>{_pct(d['new'])}</td><td>{delta}</td><td>{ci}</td>"
                     f"<td>{'yes' if d['excludes_zero'] else 'no'}</td></tr>")
    table.append("</table>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>" + escape(title) + "</title><style>"
            "body{font-family:sans-serif;margin:24px}table{border-collapse:collapse;margin-top:16px}"
            "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:nth-child(-n+2){text-align:left}"
            "</style></head><body><h3>" + escape(title) + "</h3>" + "".join(parts) + "".join(table)
            + "</body></html>\n")
