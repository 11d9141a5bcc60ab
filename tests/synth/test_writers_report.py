from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest

from prove.synth import SynthConfig, run
from prove.synth.report import collect, render
from prove.synth.rundir import RunDir
from prove.synth.writers import MissingExtra, chat_messages, verl_row, write_hf, write_parquet

from .conftest import SERVERS


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small")
    run(SynthConfig(n=24, seed=9, servers=SERVERS, shard_size=12), out)
    return out


def test_parquet_has_verl_columns_and_round_trips(small: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = write_parquet(small / "dataset.jsonl", tmp_path / "d.parquet")
    table = pq.read_table(path)
    assert table.column_names == ["data_source", "prompt", "ability", "reward_model", "extra_info"]
    rows = table.to_pylist()
    examples = [json.loads(line) for line in (small / "dataset.jsonl").read_text().splitlines()]
    assert len(rows) == len(examples)
    for row, ex in zip(rows, examples):
        assert row["prompt"][-1]["role"] == "user" and row["prompt"][0]["role"] == "system"
        gt = json.loads(row["reward_model"]["ground_truth"])
        assert gt["turns"] == ex["turns"] and "messages" not in gt
        assert row["extra_info"]["example_id"] == ex["id"]
        assert json.loads(row["extra_info"]["tools"]) == ex["tools"]
    again = write_parquet(small / "dataset.jsonl", tmp_path / "e.parquet")
    assert again.read_bytes() == path.read_bytes()


def test_parquet_rows_score_with_the_verl_adapter(small: Path) -> None:
    from prove.integrations.verl.reward import compute_score

    ex = json.loads((small / "dataset.jsonl").read_text().splitlines()[0])
    row = verl_row(ex, 0)
    calls = [c for t in ex["turns"] for c in t["calls"]]
    text = "".join(f'<tool_call>{json.dumps({"name": c["name"], "arguments": c["arguments"]})}</tool_call>'
                   for c in calls)
    out = compute_score(row["data_source"], text, row["reward_model"]["ground_truth"], row["extra_info"])
    assert out["score"] > 0 if calls else out["score"] == 1.0


def test_hf_dataset_loads_with_nested_features(small: Path, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    target = write_hf(small / "dataset.jsonl", tmp_path / "hf")
    ds = datasets.load_dataset(str(target), split="train")
    assert len(ds) == 24
    assert set(ds.column_names) >= {"id", "prompt", "messages", "tools", "turns", "ground_truth", "kind"}
    examples = [json.loads(line) for line in (small / "dataset.jsonl").read_text().splitlines()]
    for row, ex in zip(ds, examples):
        # Lists and dicts, exactly as the records hold them (no keys padded in), arguments as objects.
        assert row["messages"] == chat_messages(ex["messages"]) and row["tools"] == ex["tools"]
        assert row["turns"] == ex["turns"] and row["meta"] == ex.get("meta", {})
        for m in row["messages"]:
            for call in m.get("tool_calls") or []:
                assert isinstance(call["function"]["arguments"], dict)
    again = write_hf(small / "dataset.jsonl", tmp_path / "hf2")
    assert (again / "data" / "train-00000-of-00001.parquet").read_bytes() == \
        (target / "data" / "train-00000-of-00001.parquet").read_bytes()


def test_chat_messages_objects_and_split_parallel_calls() -> None:
    calls = [{"id": "a", "type": "function", "function": {"name": "f", "arguments": '{"x": 1}'}},
             {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{not json"}}]
    messages = [{"role": "user", "content": "go"}, {"role": "assistant", "content": "Both.", "tool_calls": calls},
                {"role": "tool", "tool_call_id": "b", "content": "B"}, {"role": "tool", "tool_call_id": "a", "content": "A"},
                {"role": "assistant", "content": "Done."}]
    kept = chat_messages(messages)
    assert kept[1]["tool_calls"][0]["function"]["arguments"] == {"x": 1}
    assert kept[1]["tool_calls"][1]["function"]["arguments"] == "{not json"      # not an object: left as it is
    assert messages[1]["tool_calls"][0]["function"]["arguments"] == '{"x": 1}'   # the input is not changed
    split = chat_messages(messages, split_parallel=True)
    assert [(m["role"], m.get("content"), [c["id"] for c in m.get("tool_calls", [])], m.get("tool_call_id"))
            for m in split] == [("user", "go", [], None), ("assistant", "Both.", ["a"], None), ("tool", "A", [], "a"),
                                ("assistant", None, ["b"], None), ("tool", "B", [], "b"), ("assistant", "Done.", [], None)]


def test_missing_extra_names_it(small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.startswith(("pyarrow", "datasets")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    import importlib
    monkeypatch.setattr(importlib, "import_module", lambda name, *a: fake(name))
    with pytest.raises(MissingExtra, match=r"prove-rl\[data\]"):
        write_parquet(small / "dataset.jsonl", tmp_path / "x.parquet")
    with pytest.raises(MissingExtra, match=r"prove-rl\[data\]"):
        write_hf(small / "dataset.jsonl", tmp_path / "hf")


def test_report_renders_svg_plots_and_the_comparison(small: Path, tmp_path: Path) -> None:
    stats = json.loads((small / "stats.json").read_text())
    assert stats["per_server"] and stats["grounding"]["replay_pass_rate"] == 1.0
    ung = tmp_path / "ung"
    run(SynthConfig(n=4, seed=9, servers=SERVERS, shard_size=12, ungrounded=True), ung)
    other = json.loads((ung / "stats.json").read_text())
    assert other["grounding"]["entity_existence"] < stats["grounding"]["entity_existence"]
    page = render(stats, ungrounded=other, sections=[("Extra", "<p>hello</p>")])
    assert page.count("<svg") >= 8
    for words in ("Examples per server and kind", "Chain lengths", "User turns", "Perturbation mix",
                  "Rejection reasons", "grounded vs ungrounded", "state-machine failure rate", "replay pass rate",
                  "hello"):
        assert words in page
    manifest = json.loads((small / "manifest.json").read_text())
    kept = [json.loads(line)["id"] for line in (small / "dataset.jsonl").read_text().splitlines()]
    assert collect(RunDir(small), manifest, kept) == stats
