"""`prove eval --benchmark`, `prove eval compare` and `prove eval convert` as real subprocesses, against
the scripted chat-completions server (scripted answers, not a model)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("bfcl_eval", reason="needs bfcl-eval: pip install 'prove-rl[bfcl]' && "
                                        "pip install --no-deps bfcl-eval==2026.3.23")

from prove.evals import bfcl  # noqa: E402
from prove.rollout import ScriptedModel, ScriptedServer  # noqa: E402

from .test_bfcl import first_message, gold_script  # noqa: E402

SCRIPT = Path(sys.executable).with_name("prove")
PROVE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "prove"]
N = 6


def prove(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROVE, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "160"})


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A gold run and a two-trial no-call run of the first base entries, and their files."""
    out = tmp_path_factory.mktemp("bench")
    entries = bfcl.load(["base"])[:N]
    scripts = {first_message(e): gold_script(e) for e in entries}
    assert len(scripts) == N
    common = ["--benchmark", "bfcl-multi-turn:base", "--limit", str(N), "-j", "3"]
    with ScriptedServer(ScriptedModel(scripts)) as server:
        gold = prove("eval", *common, "-m", "gold", "-u", server.url, "--out", str(out / "gold.json"),
                     "--trajectories", str(out / "gold-traj.jsonl"), "--json")
    assert gold.returncode == 0, gold.stderr
    (out / "gold.stdout").write_text(gold.stdout)
    with ScriptedServer(ScriptedModel({})) as server:
        none = prove("eval", *common, "-m", "silent", "-u", server.url, "--out", str(out / "none.json"),
                     "--trials", "2", "--seed", "7")
    assert none.returncode == 0, none.stderr
    (out / "none.stdout").write_text(none.stdout)
    return out


def test_benchmark_run_reports_n_mean_and_interval(runs: Path) -> None:
    summary = json.loads((runs / "gold.stdout").read_text())["summary"]
    assert summary["all"]["n"] == N and summary["all"]["mean"] == 1.0 and summary["all"]["ci95"] == [1.0, 1.0]
    assert summary["categories"]["base"]["err"] == 0
    doc = json.loads((runs / "gold.json").read_text())
    assert doc["format"] == "prove-eval/1" and doc["benchmark"] == "bfcl-multi-turn" and doc["model"] == "gold"
    assert [r["valid"] for r in doc["runs"][0]["records"]] == [True] * N
    assert "messages" not in doc["runs"][0]["records"][0]
    table = (runs / "none.stdout").read_text()
    assert "6 entries × 2 run(s)" in table and "pass^2" in table and "0.0" in table
    none = json.loads((runs / "none.json").read_text())
    assert [r["seed"] for r in none["runs"]] == [7, 8] and none["summary"]["all"]["spread"]["std"] == 0.0


def test_compare_prints_the_paired_delta_and_writes_a_plot(runs: Path) -> None:
    plot = runs / "cmp.html"
    done = prove("eval", "compare", str(runs / "none.json"), str(runs / "gold.json"), "--json", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    [found] = json.loads(done.stdout)
    group = found["groups"]["base"]
    assert group["delta"] == 1.0 and group["excludes_zero"] and group["n"] == N
    assert found["base_model"] == "silent" and found["new_model"] == "gold"
    assert "<svg" in plot.read_text()
    table = prove("eval", "compare", str(runs / "none.json"), str(runs / "gold.json"))
    assert table.returncode == 0 and "+100.0" in table.stdout and "yes" in table.stdout


def test_converted_records_score_gold_trajectories_with_prove_reward(runs: Path) -> None:
    data = runs / "bfcl-base.jsonl"
    done = prove("eval", "convert", "bfcl-multi-turn:base", str(data), "--limit", str(N))
    assert done.returncode == 0, done.stderr
    assert f"wrote {N} examples" in done.stdout
    scored = prove("reward", "score", str(runs / "gold-traj.jsonl"), "--dataset", str(data), "--json")
    assert scored.returncode == 0, scored.stderr
    report = json.loads(scored.stdout)
    assert report["count"] == N and report["mean"]["score"] == pytest.approx(report["best"])
    audit = prove("reward", "audit", str(data))
    assert audit.returncode == 0, audit.stderr
    assert "gold is strictly above every corruption on every example" in audit.stdout


def test_bad_benchmark_arguments() -> None:
    for args, message in ((["--benchmark", "nope"], "no benchmark 'nope'"),
                          (["--benchmark", "bfcl-multi-turn:bad"], "no BFCL multi-turn category 'bad'"),
                          (["--benchmark", "tau2:space"], "tau2 takes one domain"),
                          (["data.jsonl", "--benchmark", "bfcl-multi-turn"], "not both"),
                          (["--benchmark", "bfcl-multi-turn", "--seeds", "1,2", "--trials", "3"], "not both")):
        done = prove("eval", *args, "-m", "x", "-u", "http://127.0.0.1:9")
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
    done = prove("eval", "compare", "/nonexistent.json", "/nonexistent.json")
    assert done.returncode == 2 and "cannot read the result" in done.stderr


def test_a_missing_extra_gives_one_line_naming_it() -> None:
    code = ("import sys; sys.modules['bfcl_eval'] = None; from prove.cli import main; "
            "sys.argv = ['prove', 'eval', '--benchmark', 'bfcl-multi-turn', '-m', 'x', '-u', 'http://127.0.0.1:9']; "
            "main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'prove-rl[bfcl]'" in lines[0] and "bfcl-eval" in lines[0], lines
