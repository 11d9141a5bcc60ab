"""Stage 7: the figures of a run (`stats.json`) and `prove synth report`'s HTML page.

`collect` reads the per-candidate records of the shards and computes: counts per server and
kind, chain lengths, turns, perturbation mix, information levels, rejection reasons, and the
grounding figures:

- *entity existence*: the share of entity references in the teacher's calls (deliberate
  mistakes aside) that exist in the live state at that point, over every conversation run, and
  the same over the accepted examples' gold calls;
- *state-machine failure rate*: the share of conversations in which some turn ended PARTIAL or
  FAILURE, or the machine could not finish (plan, format, step limit); with the share of calls
  that failed;
- *replay pass rate*: the share of finished conversations whose replay on a fresh session
  reproduced every result and the fingerprint;
- *yield*: accepted examples over candidates.

With a cross-server share, `cross_server` adds: the candidates and accepted examples on combined
views, their replay failures, the server groups and hops (`crm->calendar`) used, and the share of
accepted ones whose chain carries an entity from one server to another (`synth/cross.py`).

`render` draws them as a self-contained HTML page with inline SVG (no plotting dependency),
optionally beside the figures of an ungrounded run, and with extra sections the caller adds
(the CLI adds the reward of the gold calls: synth does not import the reward, by the
dependency rule).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..env import ProveError, Server, registry
from .quality import summarize
from .rundir import RunDir

__all__ = ["collect", "load_stats", "render"]

KIND_COLORS = {"multi_turn": "#4C78A8", "clarification": "#F58518", "abstention": "#54A24B",
               "irrelevance": "#B279A2"}
PALETTE = ["#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#FF9DA6", "#9D755D", "#BAB0AC",
           "#EECA3B"]
_FAILED = {"plan_failed", "teacher_format", "too_many_steps", "plan_diverged", "no_successful_calls", "teacher_error"}


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def collect(rd: RunDir, manifest: dict[str, Any], kept: Sequence[str]) -> dict[str, Any]:
    """Figures of a run from its shards' candidate records (`kept`: the ids in dataset.jsonl)."""
    keep = set(kept)
    metas = list(rd.iter_meta(manifest))
    accepted = [m for m in metas if m["id"] in keep]
    reasons = Counter(m["status"] for m in metas if m["status"] != "accepted")
    ran = [m for m in metas if "calls" in m]
    finished = [m for m in metas if "replay" in m]
    sm_fail = sum(1 for m in metas if m["status"] in _FAILED
                  or any(o in ("partial", "failure") for o in m.get("outcomes", [])))
    per_server: dict[str, Counter[str]] = {}
    for m in accepted:
        per_server.setdefault(m["server"], Counter())[m["kind"]] += 1
    config = manifest.get("config", {})
    strategies = Counter(s for m in accepted for s in m.get("strategies", []))
    outcomes = Counter(o for m in accepted for o in m.get("outcomes", []))
    out = _stats(config, metas, accepted, reasons, ran, finished, sm_fail, per_server, strategies, outcomes)
    cross = [m for m in metas if "+" in m["server"]]
    if cross:
        out["cross_server"] = _cross(cross, [m for m in accepted if "+" in m["server"]], len(accepted))
    return out


def _cross(metas: Sequence[Mapping[str, Any]], accepted: Sequence[Mapping[str, Any]], total: int) -> dict[str, Any]:
    """The cross-server figures: how many, on which groups, replayed, and what they carry across."""
    carry = [m.get("cross", {}) for m in accepted]
    judged = [m["cross"] for m in metas if "cross" in m]  # replayed and faithful, before the carry filter
    finished = [m for m in metas if "replay" in m]
    return {
        "candidates": len(metas),
        "accepted": len(accepted),
        "share_of_dataset": _ratio(len(accepted), total),
        "yield": _ratio(sum(1 for m in metas if m["status"] == "accepted"), len(metas)),
        "replay_failures": sum(1 for m in finished if not m["replay"]),
        "carried": _ratio(sum(1 for c in carry if c.get("value") or c.get("entity")), len(carry)),
        "carried_before_filter": _ratio(sum(1 for c in judged if c.get("value") or c.get("entity")), len(judged)),
        "carried_value": _ratio(sum(1 for c in carry if c.get("value")), len(carry)),
        "carried_entity": _ratio(sum(1 for c in carry if c.get("entity")), len(carry)),
        "groups": dict(sorted(Counter(m["server"] for m in accepted).items())),
        "hops": dict(sorted(Counter(h for c in carry for h in c.get("hops", [])).items())),
        "reasons": dict(sorted(Counter(m["status"] for m in metas if m["status"] != "accepted").items())),
    }


def _stats(config: Mapping[str, Any], metas: Sequence[Mapping[str, Any]], accepted: Sequence[Mapping[str, Any]],
           reasons: Counter[str], ran: Sequence[Mapping[str, Any]], finished: Sequence[Mapping[str, Any]], sm_fail: int,
           per_server: Mapping[str, Counter[str]], strategies: Counter[str], outcomes: Counter[str]) -> dict[str, Any]:
    return {
        "config": {k: config.get(k) for k in ("seed", "teacher", "ungrounded", "worlds", "refresh", "dedup",
                                              "max_failure_rate", "servers")},
        "candidates": len(metas),
        "accepted": len(accepted),
        "accepted_total": sum(1 for m in metas if m["status"] == "accepted"),
        "yield": _ratio(sum(1 for m in metas if m["status"] == "accepted"), len(metas)),
        "reasons": dict(sorted(reasons.items())),
        "per_server": {s: dict(sorted(c.items())) for s, c in sorted(per_server.items())},
        "kinds": dict(sorted(Counter(m["kind"] for m in accepted).items())),
        "levels": dict(sorted(Counter(m.get("level", "") for m in accepted).items())),
        "chain_lengths": dict(sorted(Counter(str(m.get("chain", 0)) for m in accepted).items())),
        "gold_calls": dict(sorted(Counter(str(m.get("gold", 0)) for m in accepted).items(), key=lambda kv: int(kv[0]))),
        "turns": dict(sorted(Counter(str(m.get("turns", 0)) for m in accepted).items())),
        "perturbations": dict(sorted(Counter(p for m in accepted for p in (m.get("perturbations") or ["none"])).items())),
        "quality": summarize(accepted, _servers(sorted({m["server"] for m in metas})), reasons),
        "strategies": dict(sorted(strategies.items())),
        "outcomes": dict(sorted(outcomes.items())),
        "grounding": {
            "refs": sum(m.get("refs", 0) for m in ran),
            "refs_exist": sum(m.get("refs_exist", 0) for m in ran),
            "entity_existence": _ratio(sum(m.get("refs_exist", 0) for m in ran), sum(m.get("refs", 0) for m in ran)),
            "gold_refs": sum(m.get("gold_refs", 0) for m in accepted),
            "gold_refs_exist": sum(m.get("gold_refs_exist", 0) for m in accepted),
            "gold_entity_existence": _ratio(sum(m.get("gold_refs_exist", 0) for m in accepted),
                                            sum(m.get("gold_refs", 0) for m in accepted)),
            "state_machine_failure_rate": _ratio(sm_fail, len(metas)),
            "call_failure_rate": _ratio(sum(m.get("failed", 0) for m in ran), sum(m.get("calls", 0) for m in ran)),
            "replay_pass_rate": _ratio(sum(1 for m in finished if m["replay"]), len(finished)),
            "regenerations": sum(m.get("regenerations", 0) for m in ran),
        },
    }


def _servers(names: Sequence[str]) -> list[Server]:
    out = []
    for name in names:
        try:
            out.append(registry.get(name))
        except ProveError:
            continue  # a server no longer installed: its tools are not counted
    return out


def load_stats(out: Path) -> dict[str, Any]:
    path = Path(out) / "stats.json"
    return json.loads(path.read_text())


# ----- SVG ----------------------------------------------------------------------------------------

def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def hbar(title: str, data: Mapping[str, float], *, color: str = "#4C78A8", fmt: str = "{:g}", width: int = 560,
         sort: bool = False) -> str:
    """A horizontal bar chart as an SVG string."""
    items = sorted(data.items(), key=lambda kv: -kv[1]) if sort else list(data.items())
    if not items:
        return f"<figure><figcaption>{_esc(title)}</figcaption><p class=empty>no data</p></figure>"
    row, label_w, pad = 22, 150, 60
    h = row * len(items) + 30
    top = max(v for _, v in items) or 1
    bar_w = width - label_w - pad
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
             f'aria-label="{_esc(title)}"><style>text{{font:12px sans-serif}}</style>']
    for i, (label, value) in enumerate(items):
        y = 10 + i * row
        w = max(1.0, bar_w * value / top) if value else 0
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_esc(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{color}"/>')
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 14}">{_esc(fmt.format(value))}</text>')
    parts.append("</svg>")
    return f"<figure><figcaption>{_esc(title)}</figcaption>{''.join(parts)}</figure>"


def stacked(title: str, rows: Mapping[str, Mapping[str, float]], colors: Mapping[str, str], width: int = 640) -> str:
    """Horizontal stacked bars (one row per key, one segment per series) with a legend."""
    series = list(colors)
    for r in rows.values():
        for k in r:
            if k not in series:
                series.append(k)
    if not rows:
        return f"<figure><figcaption>{_esc(title)}</figcaption><p class=empty>no data</p></figure>"
    row, label_w, pad = 22, 130, 50
    h = row * len(rows) + 50
    top = max(sum(r.values()) for r in rows.values()) or 1
    bar_w = width - label_w - pad
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
             f'aria-label="{_esc(title)}"><style>text{{font:12px sans-serif}}</style>']
    for i, (label, r) in enumerate(rows.items()):
        y = 10 + i * row
        x = float(label_w)
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_esc(label)}</text>')
        for s in series:
            v = r.get(s, 0)
            if not v:
                continue
            w = bar_w * v / top
            color = colors.get(s) or PALETTE[series.index(s) % len(PALETTE)]
            parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{color}">'
                         f'<title>{_esc(s)}: {v:g}</title></rect>')
            x += w
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 14}">{sum(r.values()):g}</text>')
    ly = 10 + len(rows) * row + 14
    lx = label_w
    for s in series:
        color = colors.get(s) or PALETTE[series.index(s) % len(PALETTE)]
        parts.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{color}"/>'
                     f'<text x="{lx + 16}" y="{ly}">{_esc(s)}</text>')
        lx += 24 + 7 * len(s)
    parts.append("</svg>")
    return f"<figure><figcaption>{_esc(title)}</figcaption>{''.join(parts)}</figure>"


def grouped(title: str, metrics: Mapping[str, Mapping[str, float | None]], colors: Mapping[str, str],
            width: int = 640) -> str:
    """Grouped horizontal bars of shares (0..1): one group per metric, one bar per run."""
    runs = list(colors)
    row, label_w, pad = 18, 210, 60
    group_h = row * len(runs) + 10
    h = group_h * len(metrics) + 40
    bar_w = width - label_w - pad
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
             f'aria-label="{_esc(title)}"><style>text{{font:12px sans-serif}}</style>']
    for g, (metric, values) in enumerate(metrics.items()):
        y0 = 10 + g * group_h
        parts.append(f'<text x="{label_w - 6}" y="{y0 + group_h / 2 + 2:.0f}" text-anchor="end">{_esc(metric)}</text>')
        for r, run in enumerate(runs):
            v = values.get(run)
            y = y0 + r * row
            if v is None:
                parts.append(f'<text x="{label_w + 4}" y="{y + 13}" fill="#888">{_esc(run)}: n/a</text>')
                continue
            w = max(1.0, bar_w * v) if v else 0
            parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 4}" fill="{colors[run]}"/>'
                         f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{v * 100:.1f}%</text>')
    ly = h - 12
    lx = label_w
    for run in runs:
        parts.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{colors[run]}"/>'
                     f'<text x="{lx + 16}" y="{ly}">{_esc(run)}</text>')
        lx += 30 + 7 * len(run)
    parts.append("</svg>")
    return f"<figure><figcaption>{_esc(title)}</figcaption>{''.join(parts)}</figure>"


# ----- page ---------------------------------------------------------------------------------------

def _cross_section(cross: Mapping[str, Any]) -> str:
    rows = [("examples on several servers", cross["accepted"]), ("share of the dataset", _pct(cross["share_of_dataset"])),
            ("yield", _pct(cross["yield"])), ("replay failures", cross["replay_failures"]),
            ("carry an entity across", _pct(cross["carried"])),
            ("... before the carry filter", _pct(cross.get("carried_before_filter"))),
            ("... a value read on one server", _pct(cross["carried_value"])),
            ("... an entity a bridge makes the same", _pct(cross["carried_entity"]))]
    return (f"<section><h2>Cross-server examples</h2>{_table(rows, ['figure', 'value'])}<div class=grid>"
            f"{hbar('Server groups', cross['groups'], color='#4C78A8', sort=True)}"
            f"{hbar('Hops carried (server -> server)', cross['hops'], color='#72B7B2', sort=True)}</div></section>")


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 100:.2f}%"


def _table(rows: Iterable[Sequence[Any]], head: Sequence[str]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return "<table><thead><tr>" + "".join(f"<th>{_esc(h)}</th>" for h in head) + f"</tr></thead><tbody>{body}</tbody></table>"


GROUNDING = [
    ("entity references that exist", "entity_existence", True),
    ("gold references that exist", "gold_entity_existence", True),
    ("replay pass rate", "replay_pass_rate", True),
    ("state-machine failure rate", "state_machine_failure_rate", False),
    ("failed calls", "call_failure_rate", False),
]


def render(stats: Mapping[str, Any], *, ungrounded: Mapping[str, Any] | None = None, title: str = "PROVE synthesis",
           sections: Sequence[tuple[str, str]] = ()) -> str:
    """The report as one self-contained HTML page. `sections`: (heading, HTML) pairs appended."""
    g = stats["grounding"]
    cfg = stats.get("config", {})
    head = [
        ("candidates", stats["candidates"]), ("accepted", stats["accepted"]), ("yield", _pct(stats.get("yield"))),
        ("teacher", cfg.get("teacher")), ("seed", cfg.get("seed")),
        ("grounded", not cfg.get("ungrounded")),
        ("entity references that exist", _pct(g.get("entity_existence"))),
        ("gold references that exist", _pct(g.get("gold_entity_existence"))),
        ("replay pass rate", _pct(g.get("replay_pass_rate"))),
        ("state-machine failure rate", _pct(g.get("state_machine_failure_rate"))),
    ]
    q = stats.get("quality") or {}
    if q:
        head += [
            ("replies pasting a description", _pct(q.get("docstring_reply_share"))),
            ("replies read field by field", _pct(q.get("field_dump_reply_share"))),
            ("turns with a parameter-name clause", _pct(q.get("clause_turn_share"))),
            ("turns naming a raw ID", _pct(q.get("raw_id_turn_share"))),
            ("searches that find nothing", _pct(q.get("empty_search_share"))),
            (f"top opener ('{q.get('top_opener')}')", _pct(q.get("top_opener_share"))),
            ("tools in 5+ gold calls", _pct(q.get("tool_coverage"))),
        ]
    cards = "".join(f"<div class=card><div class=k>{_esc(k)}</div><div class=v>{_esc(v)}</div></div>" for k, v in head)
    figs = [
        stacked("Examples per server and kind", stats["per_server"], KIND_COLORS),
        hbar("Kinds", stats["kinds"], color="#4C78A8"),
        hbar("Chain lengths (tools in the seeding chain)", stats["chain_lengths"], color="#72B7B2"),
        hbar("Gold calls per example", stats.get("gold_calls", {}), color="#72B7B2"),
        hbar("User turns per example", stats["turns"], color="#54A24B"),
        hbar("Perturbation mix (examples carrying each)", stats["perturbations"], color="#F58518", sort=True),
        hbar("Information levels", stats.get("levels", {}), color="#9D755D"),
        hbar("Turn outcomes", stats.get("outcomes", {}), color="#E45756", sort=True),
        hbar("Recovery strategies", stats.get("strategies", {}), color="#B279A2", sort=True),
        hbar("Rejection reasons", stats["reasons"], color="#E45756", sort=True),
        hbar("Rejected as unfaithful, by reason", q.get("unfaithful", {}), color="#E45756", sort=True),
    ]
    runs = {"grounded": stats}
    if ungrounded is not None:
        runs["ungrounded"] = ungrounded
    colors = {"grounded": "#4C78A8", "ungrounded": "#E45756"}
    metrics = {label: {name: r["grounding"].get(key) for name, r in runs.items()} for label, key, _ in GROUNDING}
    metrics["yield"] = {name: r.get("yield") for name, r in runs.items()}
    grounding_fig = grouped("Grounding: grounded vs ungrounded" if ungrounded else "Grounding", metrics,
                            {k: colors[k] for k in runs})
    rows = [(label, *(_pct(v) for v in metrics[label].values())) for label in metrics]
    grounding_table = _table(rows, ["figure", *runs])
    extra = "".join(f"<section><h2>{_esc(h)}</h2>{body}</section>" for h, body in sections)
    per_server_rows = [(s, sum(c.values()), *(c.get(k, 0) for k in KIND_COLORS)) for s, c in stats["per_server"].items()]
    cross = stats.get("cross_server")
    if cross:
        extra = _cross_section(cross) + extra
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>
<style>
body{{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1380px;color:#222;padding:0 16px}}
h1{{font-size:22px}} h2{{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}}
.cards{{display:flex;flex-wrap:wrap;gap:10px}} .card{{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:150px}}
.k{{color:#666;font-size:12px}} .v{{font-size:18px;font-weight:600}}
.grid{{display:flex;flex-wrap:wrap;gap:18px}} figure{{margin:0}} figcaption{{font-weight:600;margin:6px 0}}
table{{border-collapse:collapse;font-size:13px}} td,th{{border:1px solid #ddd;padding:3px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}} .empty{{color:#888}}
</style></head><body>
<h1>{_esc(title)}</h1>
<div class=cards>{cards}</div>
<h2>Grounding</h2>
<div class=grid>{grounding_fig}<div>{grounding_table}<p>Entity references: {g.get('refs_exist', 0)} of {g.get('refs', 0)} in the teacher's calls exist in the live state; {g.get('gold_refs_exist', 0)} of {g.get('gold_refs', 0)} in the gold calls. Format regenerations: {g.get('regenerations', 0)}.</p></div></div>
<h2>Dataset</h2>
<div class=grid>{''.join(figs)}</div>
<h2>Per server</h2>
{_table(per_server_rows, ["server", "examples", *KIND_COLORS])}
{extra}
</body></html>
"""
