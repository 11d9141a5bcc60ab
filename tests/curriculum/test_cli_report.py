"""`prove curriculum simulate` and `prove curriculum report` on real runs."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from prove.cli import app
from prove.curriculum import Curriculum, CurriculumConfig
from prove.curriculum.report import read_log, render
from prove.records import Example

from .conftest import generator


def test_report_of_a_log(seeds: list[Example], tmp_path: Path) -> None:
    log = tmp_path / "curriculum.jsonl"
    cur = Curriculum(seeds, CurriculumConfig(capacity=16, skill_by=["server", "kind"], min_groups=1,
                                             generate_per_step=2), generator=generator(), log=log)
    for step in range(4):
        cur.update([(e.id, [1.0, 0.0] if k % 2 else [1.0, 1.0]) for k, e in enumerate(cur.draw(6))])
    records = read_log(log)
    assert [r["step"] for r in records] == [1, 2, 3, 4]
    assert all(set(r) >= {"drawn", "boundary", "generated", "retired", "buffer", "totals"} for r in records)
    page = render(records)
    assert page.count("<svg") == 5 and "Boundary: skills on it" in page and "Buffer skill mix by server" in page
    done = CliRunner().invoke(app, ["curriculum", "report", str(log), "--out", str(tmp_path / "r.html")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "r.html").read_text() == page
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"step": 1}\n')
    done = CliRunner().invoke(app, ["curriculum", "report", str(bad)])
    assert done.exit_code == 2 and "not a curriculum log" in " ".join(done.output.split())


def test_simulate_command(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["curriculum", "simulate", "--out", str(tmp_path), "--servers", "banking",
                                    "--n", "40", "--steps", "12", "--prompts", "6", "--rollouts", "4",
                                    "--capacity", "24", "--generate", "2"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)["summary"]
    for run in ("static", "curriculum"):
        assert 0 <= summary[run]["boundary_share"] <= 1 and 0 < summary[run]["skill"] < 1
    assert summary["rollouts"] == 12 * 6 * 4
    saved = json.loads((tmp_path / "simulation.json").read_text())
    assert len(saved["static"]) == len(saved["curriculum"]) == 12
    assert len(read_log(tmp_path / "log.jsonl")) == 12
    assert "Simulated skill reached" in (tmp_path / "report.html").read_text()
    done = CliRunner().invoke(app, ["curriculum", "simulate", "--out", str(tmp_path), "--skill-by", "colour"])
    assert done.exit_code == 2 and "unknown skill field" in " ".join(done.output.split())
