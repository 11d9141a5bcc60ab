"""What the adapter tests compare against: `prove eval`'s scripted run on a sample of examples.

The sample is the five hand-recorded examples (a chain, two user turns, a clarification, an
abstention, a calendar lookup) and a small `prove synth` run. The scripted policy is the
scripted model server (`prove.rollout.ScriptedServer`, a test double, not a model) replaying
each example's reference conversation, spoiled on purpose for some examples (an answer without
the calls, a repeated call) so that the rewards differ from one example to the next. Each
adapter test plays the same policy through its framework and must get exactly the rewards that
`prove eval` gets here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from prove.records import Example, read_trajectories, write_jsonl
from prove.rollout import ScriptedModel, oracle

from ..rollout.data import dataset

SCRIPT = Path(sys.executable).with_name("prove")
PROVE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "prove"]


def scripted_data(factory: Any, name: str) -> tuple[list[Example], Path, Path]:
    """A module fixture's sample: (its examples, their JSONL path, a temporary folder named `name`)."""
    out = factory.mktemp(name)
    examples, path = sample(out)
    return examples, path, out


def sample(out: Path) -> tuple[list[Example], Path]:
    """The sample's examples and the JSONL file that holds them."""
    from prove.records import read_examples
    from prove.synth import SynthConfig, run

    run(SynthConfig(n=6, seed=3, servers=["banking", "calendar"]), out / "synth", cache_dir=out / "cache")
    examples = dataset() + read_examples(out / "synth" / "dataset.jsonl")
    path = out / "sample.jsonl"
    write_jsonl(path, examples)
    return examples, path


def scripted_model(examples: list[Example]) -> ScriptedModel:
    """The reference replies, spoiled for every third example (no calls) and the one after it (a call twice)."""
    scripts: dict[str, list[dict[str, Any]]] = oracle(examples)
    for k, key in enumerate(sorted(scripts)):
        steps = scripts[key]
        if k % 3 == 1:
            scripts[key] = [{"content": "I have done it."}]
        elif k % 3 == 2 and steps and steps[0].get("calls"):
            scripts[key] = [steps[0], *steps]
    return ScriptedModel(scripts)


def eval_rewards(path: Path, base_url: str, out: Path) -> dict[str, float]:
    """`prove eval`'s reward per example, from the real command's scored trajectories."""
    trajectories = out / "eval.jsonl"
    run = subprocess.run([*PROVE, "eval", str(path), "--model", "scripted", "--base-url", base_url, "--json",
                          "--out", str(trajectories), "-j", "2"], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "COLUMNS": "160"})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["count"] > 0
    return {t.example_id: t.reward["score"] for t in read_trajectories(trajectories)}
