"""`prove export verl` on cross-server examples: rows name both servers, the tool config serves
each tool name the examples use (collisions qualified as the episode exposes them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prove.env import Session

from ..synth.cross_data import cross_examples
from .conftest import missing

if missing("pyarrow", "yaml"):
    pytest.skip("pyarrow and pyyaml are not installed (pip install 'prove-rl[data]')", allow_module_level=True)

import pyarrow.parquet as pq  # noqa: E402
import yaml  # noqa: E402

from prove.integrations.verl.export import export  # noqa: E402


def test_export_of_cross_server_examples(tmp_path: Path) -> None:
    examples = list(cross_examples())
    export(examples, tmp_path, val=1)
    rows = pq.read_table(tmp_path / "train.parquet").to_pylist() + pq.read_table(tmp_path / "val.parquet").to_pylist()
    by_id = {r["extra_info"]["example_id"]: r for r in rows}
    assert set(by_id) == {ex.id for ex in examples}
    for ex in examples:
        row = by_id[ex.id]
        assert row["data_source"] == "prove/" + "+".join(ex.servers)
        assert row["extra_info"]["tools_kwargs"] == {"prove": {"servers": ex.servers, "world": ex.world}}
        gt = json.loads(row["reward_model"]["ground_truth"])
        assert gt["fingerprint"] == ex.fingerprint and gt["turns"] == ex.model_dump(mode="json")["turns"]
        with Session(ex.servers, world=ex.world) as s:
            exposed = set(s.tools())
        assert {c.name for c in ex.gold_calls()} <= exposed
    tools = yaml.safe_load((tmp_path / "tool_config.yaml").read_text())["tools"]
    names = {t["tool_schema"]["function"]["name"] for t in tools}
    assert {c.name for ex in examples for c in ex.gold_calls()} <= names
    qualified = [t for t in tools if t["tool_schema"]["function"]["name"] in ("crm_update_contact",
                                                                              "email_update_contact")]
    assert qualified and all(set(t["config"]["servers"]) >= {"crm", "email"} for t in qualified)
