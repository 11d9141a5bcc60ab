"""Stage 6: dataset writers. JSONL is the canonical form; Parquet and Hugging Face are views of it.

- `dataset.jsonl`: one `records.Example` per line (written by the pipeline).
- `dataset.parquet`: VERL's columns: `data_source`, `prompt` (the messages up to the first user
  turn), `ability`, `reward_model` = {style: "rule", ground_truth: the example without its
  messages, as JSON text}, `extra_info` = {index, example_id, split, kind, servers, world, tools
  (JSON text), user_turns, interaction_kwargs}. Heterogeneous objects (arguments, schemas) are JSON
  text: Arrow would otherwise pad them into structs of nulls, which the reward cannot tell from
  real values.
- `hf/`: a Hugging Face `datasets.Dataset` saved with `save_to_disk` (`load_from_disk` reads it),
  with `prompt` as chat messages, `ground_truth` and the other nested fields as JSON text.

Parquet needs `pyarrow`, the HF view `datasets`: both in the `data` extra
(`pip install 'prove-rl[data]'`), never in the core install.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..env.errors import ProveError

__all__ = ["FORMATS", "MissingExtra", "hf_row", "iter_examples", "verl_row", "write_hf", "write_parquet"]

FORMATS = ("jsonl", "parquet", "hf")
BATCH = 512


class MissingExtra(ProveError):
    """An optional dependency a writer needs is not installed."""


def require(module: str, extra: str = "data", what: str = "") -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(f"{what or module} needs the `{module}` package: pip install 'prove-rl[{extra}]'") from exc


def iter_examples(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _prompt(example: dict[str, Any]) -> list[dict[str, str]]:
    """The messages a policy starts from: everything up to and including the first user turn."""
    out = []
    for m in example["messages"]:
        out.append({"role": m["role"], "content": _text(m.get("content"))})
        if m["role"] == "user":
            break
    return out


def ground_truth(example: dict[str, Any]) -> str:
    """The example without its messages, as JSON text (what `prove.reward.rows` reads)."""
    return json.dumps({k: v for k, v in example.items() if k != "messages"}, ensure_ascii=False)


def verl_row(example: dict[str, Any], index: int, split: str = "train") -> dict[str, Any]:
    users = [m["content"] for m in example["messages"] if m["role"] == "user"]
    return {
        "data_source": "prove/" + "+".join(example["servers"]),
        "prompt": _prompt(example),
        "ability": "tool_use",
        "reward_model": {"style": "rule", "ground_truth": ground_truth(example)},
        "extra_info": {
            "index": index, "example_id": example["id"], "split": split, "kind": example["kind"],
            "servers": list(example["servers"]), "world": int(example["world"]),
            "tools": json.dumps(example["tools"], ensure_ascii=False),
            "user_turns": [_text(u) for u in users[1:]],
            "interaction_kwargs": {"name": "prove", "example_id": example["id"]},
        },
    }


def hf_row(example: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": example["id"], "servers": list(example["servers"]), "world": int(example["world"]),
        "kind": example["kind"], "perturbations": list(example.get("perturbations", [])),
        "prompt": _prompt(example),
        "messages": json.dumps(example["messages"], ensure_ascii=False),
        "tools": json.dumps(example["tools"], ensure_ascii=False),
        "turns": json.dumps(example["turns"], ensure_ascii=False),
        "ground_truth": ground_truth(example),
        "fingerprint": example.get("fingerprint") or "",
        "provenance": json.dumps(example.get("provenance", []), ensure_ascii=False),
        "meta": json.dumps(example.get("meta", {}), ensure_ascii=False, sort_keys=True),
    }


def _verl_schema(pa: Any) -> Any:
    msg = pa.struct([("role", pa.string()), ("content", pa.string())])
    return pa.schema([
        ("data_source", pa.string()),
        ("prompt", pa.list_(msg)),
        ("ability", pa.string()),
        ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
        ("extra_info", pa.struct([
            ("index", pa.int64()), ("example_id", pa.string()), ("split", pa.string()), ("kind", pa.string()),
            ("servers", pa.list_(pa.string())), ("world", pa.int64()), ("tools", pa.string()),
            ("user_turns", pa.list_(pa.string())),
            ("interaction_kwargs", pa.struct([("name", pa.string()), ("example_id", pa.string())])),
        ])),
    ])


def _hf_schema(pa: Any) -> Any:
    msg = pa.struct([("role", pa.string()), ("content", pa.string())])
    return pa.schema([
        ("id", pa.string()), ("servers", pa.list_(pa.string())), ("world", pa.int64()), ("kind", pa.string()),
        ("perturbations", pa.list_(pa.string())), ("prompt", pa.list_(msg)), ("messages", pa.string()),
        ("tools", pa.string()), ("turns", pa.string()), ("ground_truth", pa.string()),
        ("fingerprint", pa.string()), ("provenance", pa.string()), ("meta", pa.string()),
    ])


def _batches(source: Path, make: Any, schema: Any, pa: Any) -> Iterator[Any]:
    rows: list[dict[str, Any]] = []
    for i, example in enumerate(iter_examples(source)):
        rows.append(make(example, i))
        if len(rows) >= BATCH:
            yield pa.RecordBatch.from_pylist(rows, schema=schema)
            rows = []
    if rows:
        yield pa.RecordBatch.from_pylist(rows, schema=schema)


def write_parquet(source: Path, target: Path) -> Path:
    """`dataset.parquet` in VERL's columns from the canonical JSONL."""
    pa = require("pyarrow", what="the Parquet writer")
    pq = require("pyarrow.parquet", what="the Parquet writer")
    schema = _verl_schema(pa)
    tmp = target.with_name(target.name + ".tmp")
    with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
        for batch in _batches(source, verl_row, schema, pa):
            writer.write_batch(batch)
    os.replace(tmp, target)
    return target


def write_hf(source: Path, target: Path) -> Path:
    """A Hugging Face dataset directory (`datasets.load_from_disk(target)`) from the canonical JSONL."""
    pa = require("pyarrow", what="the Hugging Face writer")
    datasets = require("datasets", what="the Hugging Face writer")
    schema = _hf_schema(pa)
    table = pa.Table.from_batches(list(_batches(source, lambda ex, i: hf_row(ex), schema, pa)), schema=schema)
    ds = datasets.Dataset(table)
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    was = datasets.utils.logging.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        ds.save_to_disk(str(tmp))
    finally:
        if was:
            datasets.enable_progress_bars()
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)
    return target
