"""`prove reward score`, `prove reward audit` and `prove bench reward`, on a dataset built here."""

from __future__ import annotations

from prove.reward import CORRUPTIONS, RewardConfig

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prove.cli import app
from prove.records import Example, write_jsonl

from .toy_data import build, wallets

runner = CliRunner()

BEST = RewardConfig().best()  # the default preset's best without the state component


@pytest.fixture()
def dataset(tmp_path: Path, examples: list[Example]) -> Path:
    path = tmp_path / "dataset.jsonl"
    write_jsonl(path, examples)
    return path


def test_audit_gold_is_the_best_and_nothing_beats_it(dataset: Path, examples: list[Example]) -> None:
    result = runner.invoke(app, ["reward", "audit", str(dataset), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["examples"] == len(examples)
    assert report["gold_below_best"] == []
    assert not [f for f in report["findings"] if f["verdict"] == "beat"]
    corruptions = report["corruptions"]
    assert set(corruptions) <= set(CORRUPTIONS) and {"repeat_write", "repeat_read", "alternative_order"} <= set(
        corruptions)
    assert all(c["beats"] == 0 for c in corruptions.values())
    assert corruptions["calls_on_abstention"]["max"] == 0.0
    # prove: gold strictly above every corruption, and the alternative orders scored as gold.
    assert report["strict_ok"] and report["findings"] == []
    assert corruptions["alternative_order"]["punished"] == 0
    # Beside it, the paper preset: repeats within the efficiency budget tie, as its formula makes them.
    (paper,) = report["beside"]
    assert paper["preset"] == "paper" and not paper["strict_ok"]
    assert {f["corruption"] for f in paper["findings"]} <= {"repeat_1", "repeat_3", "repeat_write", "repeat_read"}
    assert corruptions["repeat_write"]["mean_state"] < 1.0
    strict = runner.invoke(app, ["reward", "audit", str(dataset), "--strict", "--no-beside"])
    assert strict.exit_code == 0, strict.output
    assert runner.invoke(app, ["reward", "audit", str(dataset), "--strict", "--preset", "paper"]).exit_code == 1


def test_audit_for_people(dataset: Path) -> None:
    result = runner.invoke(app, ["reward", "audit", str(dataset), "--show", "2"])
    assert result.exit_code == 0, result.output
    assert "gold scores the best on every example" in result.stdout
    assert "wrong_value" in result.stdout and "repeat_1" in result.stdout


def test_audit_reports_a_gold_that_fails_and_a_corruption_that_wins(tmp_path: Path, examples: list[Example]) -> None:
    w = [x for x in wallets() if not x["frozen"]]
    broken = build("bad-pin", [(f"Send 5 to {w[1]['id']}.", [
        ("c1", "get_wallet", {"wallet_id": w[0]["id"]}, []),
    ])])
    broken.turns[0].calls[0].arguments["wallet_id"] = "W-404"  # the gold call now fails on replay
    path = tmp_path / "broken.jsonl"
    write_jsonl(path, [broken, examples[1]])
    result = runner.invoke(app, ["reward", "audit", str(path), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    (below,) = [g for g in report["gold_below_best"] if "validity" in g["why"]]
    assert below["example"] == "bad-pin"
    assert any("fingerprint" in g["why"] for g in report["gold_below_best"]) is False  # reads change nothing

    config = tmp_path / "config.json"
    config.write_text(json.dumps({"weights": {"args": -1.0}}))  # a reward that pays for wrong values
    result = runner.invoke(app, ["reward", "audit", str(path), "--config", str(config)])
    assert result.exit_code == 1
    assert "above gold" in result.stdout


def test_audit_fingerprint_mismatch(tmp_path: Path, examples: list[Example]) -> None:
    ex = examples[1].model_copy(update={"fingerprint": "0" * 32})
    path = tmp_path / "fp.jsonl"
    write_jsonl(path, [ex])
    report = json.loads(runner.invoke(app, ["reward", "audit", str(path), "--json"]).stdout)
    assert "fingerprint" in report["gold_below_best"][0]["why"]


def _trajectories(tmp_path: Path, examples: list[Example]) -> Path:
    rows = []
    for ex in examples:
        rows.append({"example_id": ex.id, "messages": [m.model_dump(exclude_none=True) for m in ex.messages]})
        calls = "".join("<tool_call>" + json.dumps({"name": c.name, "arguments": c.arguments}) + "</tool_call>"
                        for c in ex.gold_calls()[:1])
        rows.append({"example_id": ex.id, "completion": calls or "Sorry."})
    path = tmp_path / "trajectories.jsonl"
    write_jsonl(path, rows)
    return path


def test_score_json_and_out(tmp_path: Path, dataset: Path, examples: list[Example]) -> None:
    trajs = _trajectories(tmp_path, examples)
    out = tmp_path / "scored.jsonl"
    result = runner.invoke(app, ["reward", "score", str(trajs), "-d", str(dataset), "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["count"] == 2 * len(examples) and report["best"] == BEST
    by_row = report["scores"]
    for ex, perfect in zip(examples, by_row[::2]):
        assert perfect["score"] == pytest.approx(1.0 if not ex.gold_calls() else BEST)
        assert perfect["state"] is None
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(written) == len(by_row) and written[0]["reward"]["score"] == by_row[0]["score"]
    assert "messages" in written[0]


def test_score_execute_and_people(tmp_path: Path, dataset: Path, examples: list[Example]) -> None:
    trajs = _trajectories(tmp_path, examples)
    result = runner.invoke(app, ["reward", "score", str(trajs), "-d", str(dataset), "--execute", "--json"])
    report = json.loads(result.stdout)
    assert all(r["state"] is not None for r in report["scores"])
    result = runner.invoke(app, ["reward", "score", str(trajs), "-d", str(dataset), "--show", "3",
                                 "--scale", "unit"])
    assert result.exit_code == 0, result.output
    assert "mean" in result.stdout and "more" in result.stdout


def test_score_a_malformed_call_instead_of_stopping(tmp_path: Path, dataset: Path) -> None:
    line = {"example_id": "read-1", "messages": [
        {"role": "user", "content": "Show the five richest wallets."},
        {"role": "assistant", "tool_calls": [{"type": "function", "function": {"arguments": "{"}}]}]}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(line) + "\n")
    result = runner.invoke(app, ["reward", "score", str(path), "-d", str(dataset), "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["scores"]
    assert row["n_calls"] == 1 and row["validity"] == 0.0 and row["score"] <= 0.0  # an unmatched call costs


def test_score_from_stdin(dataset: Path, examples: list[Example]) -> None:
    line = json.dumps({"example_id": examples[0].id, "completion": ""})
    result = runner.invoke(app, ["reward", "score", "-", "-d", str(dataset), "--json"], input=line + "\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scores"][0]["score"] == 0.0


@pytest.mark.parametrize(("content", "message"), [
    ('{"example_id": "nope", "completion": ""}', "not in"),
    ('{"example_id": "read-1"}', "exactly one"),
    ('{"example_id": "read-1", "messages": "text"}', "not a list"),
    ('{"messages": []}', "example_id"),
    ("{broken", "not JSON"),
])
def test_score_errors(tmp_path: Path, dataset: Path, content: str, message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(content + "\n")
    result = runner.invoke(app, ["reward", "score", str(path), "-d", str(dataset)])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())  # rich wraps long lines


def test_score_bad_config_and_missing_files(tmp_path: Path, dataset: Path) -> None:
    result = runner.invoke(app, ["reward", "score", "missing.jsonl", "-d", str(dataset)])
    assert result.exit_code == 2 and "no such trajectories file" in result.output
    result = runner.invoke(app, ["reward", "audit", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "no such dataset" in result.output
    result = runner.invoke(app, ["reward", "audit", str(dataset), "--turns", "sideways"])
    assert result.exit_code == 2 and "invalid reward config" in result.output


def test_bench_reward_prints_json() -> None:
    result = runner.invoke(app, ["bench", "reward", "--quick"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["benchmark"] == "reward" and data["target_5_call_per_s"] == 20_000
    for size in ("5_calls", "20_calls"):
        assert data["sizes"][size]["messages"]["per_s"] > 0
        assert data["sizes"][size]["text"]["per_s"] > 0
