from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from prove.records import read_examples
from prove.synth import SynthConfig, SynthError, run

from .conftest import SERVERS


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _config(**kw) -> SynthConfig:
    return SynthConfig(**{"n": 40, "seed": 5, "servers": SERVERS, "shard_size": 16, **kw})


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ref")
    summary = run(_config(), out)
    assert summary.accepted == 40
    return out


def test_a_run_writes_the_layout_and_valid_records(reference: Path) -> None:
    for name in ("manifest.json", "dataset.jsonl", "stats.json", "graphs.json"):
        assert (reference / name).is_file()
    examples = read_examples(reference / "dataset.jsonl")
    assert len(examples) == 40
    manifest = json.loads((reference / "manifest.json").read_text())
    assert [s["shard"] for s in manifest["shards"]] == list(range(len(manifest["shards"])))
    assert "seconds" not in json.dumps(manifest)  # nothing that varies between runs
    stats = json.loads((reference / "stats.json").read_text())
    assert stats["accepted"] == 40 and stats["grounding"]["gold_entity_existence"] == 1.0


def test_a_second_run_is_byte_identical(reference: Path, tmp_path: Path) -> None:
    run(_config(), tmp_path)
    assert _files(tmp_path) == _files(reference)


def test_workers_do_not_change_the_output(reference: Path, tmp_path: Path) -> None:
    run(_config(), tmp_path, workers=2)
    assert _files(tmp_path) == _files(reference)


def test_an_interrupted_run_resumes_without_duplicates(reference: Path, tmp_path: Path) -> None:
    run(_config(), tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    # Simulate a kill after the first shard: the later shards and the final files are gone or stale.
    for entry in manifest["shards"][1:]:
        (tmp_path / "shards" / f"{entry['shard']:05d}.jsonl.gz").unlink()
    (tmp_path / "shards" / f"{manifest['shards'][-1]['shard']:05d}.meta.json").write_text("torn")
    (tmp_path / "dataset.jsonl").write_text("partial\n")
    summary = run(_config(), tmp_path)
    assert summary.resumed == 1
    assert _files(tmp_path) == _files(reference)
    ids = [e.id for e in read_examples(tmp_path / "dataset.jsonl")]
    assert len(ids) == len(set(ids)) == 40


def test_a_larger_n_continues_the_same_stream(reference: Path, tmp_path: Path) -> None:
    run(_config(n=20), tmp_path)
    first = [e.id for e in read_examples(tmp_path / "dataset.jsonl")]
    run(_config(n=40), tmp_path)
    assert [e.id for e in read_examples(tmp_path / "dataset.jsonl")][:20] == first
    assert (tmp_path / "dataset.jsonl").read_bytes() == (reference / "dataset.jsonl").read_bytes()


def test_another_config_in_the_same_directory_is_refused(reference: Path, tmp_path: Path) -> None:
    run(_config(n=10), tmp_path)
    with pytest.raises(SynthError, match="another configuration"):
        run(_config(n=10, seed=6), tmp_path)
    run(_config(n=10, seed=6), tmp_path, overwrite=True)


def test_a_broken_server_is_skipped_with_a_warning(tmp_path: Path) -> None:
    from prove.env import Server, registry

    broken = Server("synth_broken", "Broken", "A server whose world cannot be built.", schema="CREATE TABLE t (x);",
                    world=lambda w: {"t": [{"x": 1}]})
    registry.register(broken)
    try:
        warnings: list[str] = []
        summary = run(_config(n=5, servers=["synth_broken", "banking"]), tmp_path, warn=warnings.append)
        assert summary.accepted == 5 and any("synth_broken" in w for w in warnings)
    finally:
        registry.unregister("synth_broken")


def test_no_loadable_server_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SynthError, match="no server"):
        run(_config(servers=["no_such_server"]), tmp_path)
