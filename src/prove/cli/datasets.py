"""Where a command reads its dataset: the JSONL file, or the directory `prove synth --out` wrote."""

from __future__ import annotations

from pathlib import Path

from ..records import Example, RecordError, read_examples
from .output import fail

__all__ = ["DATASET_HELP", "dataset_file", "read_dataset"]

DATASET_HELP = "The examples: a JSONL file, or a `prove synth --out` directory (its dataset.jsonl)."


def dataset_file(path: Path) -> Path:
    """The JSONL file `path` names: itself, or the dataset of the synthesis run directory it is."""
    if path.is_dir():
        from ..synth.rundir import RunDir  # the run directory's layout has one home

        found = RunDir(path).dataset
        if not found.is_file():
            fail(f"{path} holds no dataset.jsonl: is it a finished `prove synth --out` directory?")
        return found
    if not path.is_file():
        fail(f"no such dataset: {path}")
    return path


def read_dataset(path: Path) -> list[Example]:
    """The examples of a dataset file or run directory, validated (a bad record fails the command)."""
    try:
        return read_examples(dataset_file(path))
    except RecordError as exc:
        fail(str(exc))
