"""Every command that reads a dataset takes the directory `prove synth --out` writes as well as its file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prove.records import read_examples
from prove.rollout import ScriptedModel, ScriptedServer, oracle

from .test_env_commands import prove


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth")
    done = prove("synth", "--n", "4", "--seed", "1", "--servers", "banking", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("form", ["dir", "file"])
def test_reward_audit_reads_the_run_directory_or_its_file(run_dir: Path, form: str) -> None:
    source = run_dir if form == "dir" else run_dir / "dataset.jsonl"
    out = prove("reward", "audit", str(source), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["examples"] == 4


def test_reward_score_reads_the_run_directory(run_dir: Path, tmp_path: Path) -> None:
    examples = read_examples(run_dir / "dataset.jsonl")
    trajectories = tmp_path / "t.jsonl"
    trajectories.write_text("".join(json.dumps({"example_id": ex.id, "messages": []}) + "\n" for ex in examples))
    out = prove("reward", "score", str(trajectories), "--dataset", str(run_dir), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["count"] == 4


def test_export_verl_reads_the_run_directory(run_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = prove("export", "verl", str(run_dir), str(tmp_path), "--val", "1", "--json")
    assert out.returncode == 0, out.stderr
    assert (json.loads(out.stdout)["train"], json.loads(out.stdout)["val"]) == (3, 1)


def test_eval_reads_the_run_directory(run_dir: Path) -> None:
    examples = read_examples(run_dir / "dataset.jsonl")
    with ScriptedServer(ScriptedModel(oracle(examples))) as server:
        out = prove("eval", str(run_dir), "--model", "scripted", "--base-url", server.url, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["overall"]["n"] == 4


def test_a_directory_without_a_dataset_is_named(tmp_path: Path) -> None:
    out = prove("reward", "audit", str(tmp_path))
    assert out.returncode == 2 and "holds no dataset.jsonl" in out.stderr
