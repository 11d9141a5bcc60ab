"""Stage 6: dataset writers. JSONL is the canonical form; Parquet and Hugging Face are views of it.

- `dataset.jsonl`: one `records.Example` per line (written by the pipeline).
- `dataset.parquet`: VERL's columns: `data_source`, `prompt` (the messages up to the first user
  turn), `ability`, `reward_model` = {style: "rule", ground_truth: the example without its
  messages, as JSON text}, `extra_info` = {index, example_id, split, kind, servers, world, tools
  (JSON text), user_turns, interaction_kwargs}. Heterogeneous objects (arguments, schemas) are JSON
  text: Arrow would otherwise pad them into structs of nulls, which the reward cannot tell from
  real values.
- `hf/`: a Hugging Face dataset in the Hub's layout (`hf/data/train-00000-of-00001.parquet`):
  `datasets.load_dataset("DIR/hf", split="train")` reads it, here or once uploaded. `prompt`,
  `messages`, `tools`, `turns`, `provenance` and `meta` are nested features (`Json` values, so
  that objects of different shapes are not padded into structs of nulls) that read back as
  lists and dicts; the messages are chat-template ready (`chat_messages`). `ground_truth` is
  JSON text, as the reward adapters read it.

`chat_messages` gives a conversation the form chat templates expect: the records keep OpenAI's
`arguments` as JSON text, which the Qwen2.5, Llama 3.1 (and other) templates encode a second
time with `tojson`; it makes them objects, and with `split_parallel` puts one call in each
assistant message (Llama 3.1's template rejects parallel calls).

Parquet needs `pyarrow`, the HF view `datasets` (4.7 or later, for its `Json` feature): both in
the `data` extra (`pip install 'prove-rl[data]'`), never in the core install.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..env.errors import ProveError

__all__ = ["FORMATS", "MissingExtra", "chat_messages", "chat_row", "hf_features", "hf_row", "iter_examples", "verl_row",
           "write_chat", "write_hf", "write_parquet"]

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


def _object_arguments(call: Mapping[str, Any]) -> dict[str, Any]:
    """A tool call whose `function.arguments` is an object (JSON text that is not one stays as it is)."""
    function = call.get("function")
    if not isinstance(function, Mapping) or not isinstance(function.get("arguments"), str):
        return dict(call)
    try:
        value = json.loads(function["arguments"])
    except ValueError:
        return dict(call)
    return {**call, "function": {**function, "arguments": value}} if isinstance(value, dict) else dict(call)


def chat_messages(messages: Sequence[Mapping[str, Any]], *, split_parallel: bool = False) -> list[dict[str, Any]]:
    """A conversation as chat templates read it: every tool call's `arguments` an object.

    With `split_parallel`, an assistant message holding several calls becomes one message per
    call, each followed by its result (the first keeps the message's text): the same calls and
    results in the same order, for templates that hold one call per message (Llama 3.1's).
    """
    plain = [dict(m) for m in messages]
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(plain):
        m = plain[i]
        calls = [_object_arguments(c) for c in m.get("tool_calls") or []]
        if calls:
            m = {**m, "tool_calls": calls}
        if not (split_parallel and m.get("role") == "assistant" and len(calls) > 1):
            out.append(m)
            i += 1
            continue
        j = i + 1
        while j < len(plain) and plain[j].get("role") == "tool":
            j += 1
        results = plain[i + 1:j]
        for k, call in enumerate(calls):
            part = {key: v for key, v in m.items() if key != "content" or k == 0}
            out.append({**part, "tool_calls": [call]})
            answer = next((r for r in results if r.get("tool_call_id") == call.get("id")), None)
            if answer is not None:
                out.append(answer)
                results.remove(answer)
        out.extend(results)             # results that name no call of the message stay, after them
        i = j
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
    """One example as a row of the Hugging Face view (nested values as they are; see `hf_features`)."""
    return {
        "id": example["id"], "servers": list(example["servers"]), "world": int(example["world"]),
        "kind": example["kind"], "perturbations": list(example.get("perturbations", [])),
        "prompt": _prompt(example),
        "messages": chat_messages(example["messages"]),
        "tools": list(example["tools"]),
        "turns": list(example["turns"]),
        "ground_truth": ground_truth(example),
        "fingerprint": example.get("fingerprint") or "",
        "provenance": list(example.get("provenance", [])),
        "meta": example.get("meta", {}),
    }


def chat_row(example: dict[str, Any], *, split_parallel: bool = False) -> dict[str, Any]:
    """One example as a chat-template-ready row: `id`, `messages` (`chat_messages`), `tools`."""
    return {"id": example["id"], "messages": chat_messages(example["messages"], split_parallel=split_parallel),
            "tools": list(example["tools"])}


def write_chat(source: Path, target: Path, *, split_parallel: bool = False) -> dict[str, int]:
    """Chat-template-ready JSONL (`chat_row` per example) from the canonical JSONL; returns counts:
    examples, calls, and `split`: assistant messages whose parallel calls were put one per message."""
    counts = {"examples": 0, "calls": 0, "split": 0}
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for example in iter_examples(source):
            row = chat_row(example, split_parallel=split_parallel)
            counts["examples"] += 1
            for m in example["messages"]:
                made = len(m.get("tool_calls") or [])
                counts["calls"] += made
                counts["split"] += split_parallel and made > 1
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(tmp, target)
    return counts


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


def hf_features(datasets: Any) -> Any:
    """The Hugging Face view's features: lists of `Json` values where objects differ in shape."""
    text, json_list = datasets.Value("string"), datasets.List(datasets.Json())
    return datasets.Features({
        "id": text, "servers": datasets.List(text), "world": datasets.Value("int64"), "kind": text,
        "perturbations": datasets.List(text), "prompt": json_list, "messages": json_list, "tools": json_list,
        "turns": json_list, "ground_truth": text, "fingerprint": text, "provenance": json_list,
        "meta": datasets.Json(),
    })


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


HF_SHARD = "data/train-00000-of-00001.parquet"


def write_hf(source: Path, target: Path) -> Path:
    """A Hugging Face dataset directory in the Hub's layout (`datasets.load_dataset(target)`) from the JSONL."""
    datasets = require("datasets", what="the Hugging Face writer")
    if not hasattr(datasets, "Json"):
        raise MissingExtra("the Hugging Face writer needs datasets 4.7 or later (its Json feature): "
                           "pip install 'prove-rl[data]'")
    features = hf_features(datasets)
    ds = datasets.Dataset.from_list([hf_row(ex) for ex in iter_examples(source)], features=features)
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    (tmp / HF_SHARD).parent.mkdir(parents=True)
    was = datasets.utils.logging.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        ds.to_parquet(str(tmp / HF_SHARD))
    finally:
        if was:
            datasets.enable_progress_bars()
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)
    return target
