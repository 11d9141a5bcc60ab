from __future__ import annotations

import ast
import json
from pathlib import Path

from typer.testing import CliRunner

from prove.cli import app

runner = CliRunner()


def test_synth_then_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["synth", "--servers", "banking,shopping", "--n", "12", "--seed", "1",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["accepted"] == 12 and (out / "dataset.jsonl").is_file()
    again = runner.invoke(app, ["synth", "--servers", "banking,shopping", "--n", "12", "--seed", "1",
                                "--out", str(out), "--json"])
    assert json.loads(again.stdout)["resumed_shards"] == summary["shards"]
    report = runner.invoke(app, ["synth", "report", str(out), "--audit", "3", "--json"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    assert data["reward"]["gold_below_best"] == 0 and data["reward"]["audit"]["ok"]
    page = (out / "report.html").read_text()
    assert "<svg" in page and "Reward of the gold calls" in page


def test_bad_options_fail_cleanly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["synth", "--n", "0", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "invalid synthesis config" in result.output
    result = runner.invoke(app, ["synth", "--formats", "csv", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown format" in result.output
    result = runner.invoke(app, ["synth", "--teacher", "gpt4", "--servers", "banking", "--n", "1", "--out",
                                 str(tmp_path / "t")])
    assert result.exit_code == 2 and "openai:MODEL@BASE_URL" in result.output
    result = runner.invoke(app, ["synth", "report", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "stats.json" in result.output


def test_synth_imports_only_env_and_records() -> None:
    """The dependency rule: synth -> env, records."""
    root = Path(__file__).resolve().parents[2] / "src" / "prove" / "synth"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                level = node.level
                if level == 0:
                    assert not mod.startswith("prove.") or mod.split(".")[1] in ("env", "records", "synth"), (path, mod)
                else:
                    depth = len(path.relative_to(root).parts) - 1
                    if level > depth + 1:
                        assert mod.split(".")[0] in ("env", "records"), (path, mod)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("prove.") or alias.name.split(".")[1] in (
                        "env", "records", "synth"), (path, alias.name)
