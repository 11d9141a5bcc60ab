"""`prove eval` as a real subprocess of the installed console script, against the scripted model
server (a test double replaying each example's reference conversation, not a model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from prove.records import Example, read_trajectories
from prove.rollout import ScriptedModel, ScriptedServer, oracle

SCRIPT = Path(sys.executable).with_name("prove")
PROVE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "prove"]


def prove(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "160"}
    return subprocess.run([*PROVE, *args], capture_output=True, text=True, timeout=120, env=env)


def test_eval_json_report_and_trajectories(tmp_path: Path, dataset_file: Path, examples: list[Example]) -> None:
    out = tmp_path / "traj.jsonl"
    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server:
        run = prove("eval", str(dataset_file), "--model", "scripted", "--base-url", server.url, "--json",
                    "--out", str(out), "-j", "2")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["count"] == len(examples) and report["model"] == "scripted"
    overall = report["overall"]
    assert overall["score"] == report["best"] - (report["best"] - 1.0) / len(examples)  # the abstention scores 1.0
    assert overall["success"] == 1.0 and overall["state_match"] == 1.0 and overall["errors"] == 0
    assert set(report["by_kind"]) == {"multi_turn", "clarification", "abstention"}
    assert report["by_server"]["calendar"]["n"] == 1
    trajectories = list(read_trajectories(out))
    assert [t.example_id for t in trajectories] == [ex.id for ex in examples]
    assert all(t.reward is not None and t.meta["model"] == "scripted" for t in trajectories)


def test_eval_table_and_filters(dataset_file: Path, examples: list[Example]) -> None:
    with ScriptedServer(ScriptedModel(oracle(examples))) as server:
        run = prove("eval", str(dataset_file), "-m", "scripted", "-u", server.url, "--servers", "banking",
                    "--kinds", "multi_turn", "--scale", "unit")
    assert run.returncode == 0, run.stderr
    assert "2 episodes" in run.stdout and "banking" in run.stdout and "calendar" not in run.stdout
    assert "1.000" in run.stdout and "100%" in run.stdout


def test_eval_errors(dataset_file: Path) -> None:
    run = prove("eval", str(dataset_file), "-m", "x", "-u", "http://127.0.0.1:9", "--ids", "nope")
    assert run.returncode == 2 and "no example 'nope'" in run.stderr
    # An endpoint that is not there: every episode ends with a policy error, and the report says so.
    run = prove("eval", str(dataset_file), "-m", "x", "-u", "http://127.0.0.1:9", "--retries", "0", "--json",
                "--limit", "2")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["overall"]["errors"] == 2 and report["overall"]["status"] == {"policy_error": 2}
