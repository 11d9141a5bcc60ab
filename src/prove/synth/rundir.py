"""The output directory of a synthesis run: its layout, in one place.

    manifest.json          the config, its digest and the completed shards (no timestamps)
    shards/00000.jsonl.gz  accepted examples of candidates 0..249, canonical JSON lines (gzip)
    shards/00000.meta.json one entry per candidate: server, kind, status or rejection reason, figures
    graphs.json            the dependency graphs used
    dataset.jsonl          the first n accepted examples: the canonical dataset
    stats.json             the figures the report plots

The pipeline writes it and the report reads it, both through `RunDir`. Every file is written
atomically (a temporary file, then a rename), so a killed run leaves whole files only.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["FORMAT_VERSION", "RunDir", "sha256"]

FORMAT_VERSION = 1


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class RunDir:
    """One run's directory (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.manifest = self.path / "manifest.json"
        self.shards = self.path / "shards"
        self.graphs = self.path / "graphs.json"
        self.dataset = self.path / "dataset.jsonl"
        self.stats = self.path / "stats.json"

    def shard(self, i: int) -> Path:
        return self.shards / f"{i:05d}.jsonl.gz"

    def meta(self, i: int) -> Path:
        return self.shards / f"{i:05d}.meta.json"

    def create(self) -> None:
        self.shards.mkdir(parents=True, exist_ok=True)

    def clear_shards(self) -> None:
        if self.shards.is_dir():
            for f in self.shards.iterdir():
                f.unlink()

    @staticmethod
    def write(path: Path, data: bytes) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)

    def write_json(self, path: Path, value: Any, *, indent: int | None = 1) -> None:
        self.write(path, json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False).encode())

    def write_shard(self, s: int, lines: list[str], candidates: list[dict[str, Any]]) -> tuple[str, str]:
        """Write shard `s` (its examples and its candidates' records); returns both files' hashes."""
        # Compressed deterministically: no name, no time in the header. dataset.jsonl is not compressed.
        data = gzip.compress("".join(line + "\n" for line in lines).encode(), compresslevel=5, mtime=0)
        meta = json.dumps({"shard": s, "candidates": candidates}, ensure_ascii=False, sort_keys=True).encode()
        self.write(self.shard(s), data)
        self.write(self.meta(s), meta)
        return sha256(data), sha256(meta)

    def completed(self, manifest: dict[str, Any]) -> list[dict[str, Any]]:
        """The shards already written, verified against their hashes; stops at the first bad one."""
        done = []
        for i, entry in enumerate(manifest.get("shards", [])):
            path, meta = self.shard(i), self.meta(i)
            if entry.get("shard") != i or not path.is_file() or not meta.is_file():
                break
            if sha256(path.read_bytes()) != entry.get("sha256") or sha256(meta.read_bytes()) != entry.get("meta_sha256"):
                break
            done.append(entry)
        return done

    def candidates(self, i: int) -> list[dict[str, Any]]:
        return json.loads(self.meta(i).read_text())["candidates"]

    def iter_lines(self, manifest: dict[str, Any]) -> Iterator[str]:
        """The accepted examples of the completed shards, in order, as JSON lines."""
        for entry in manifest["shards"]:
            with gzip.open(self.shard(entry["shard"]), "rt", encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        yield line.rstrip("\n")

    def iter_meta(self, manifest: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every candidate's record of the completed shards, in order."""
        for entry in manifest["shards"]:
            yield from self.candidates(entry["shard"])
