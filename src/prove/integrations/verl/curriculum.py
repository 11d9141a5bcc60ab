"""VERL (0.9.x) hook: `CurriculumDataset`, a training dataset whose rows are a curriculum's buffer and
which receives every step's rewards.

```yaml
data:
  train_files: out/dataset/dataset.jsonl   # PROVE examples (JSONL): the curriculum's seed
  val_files: out/verl/val.parquet          # Parquet (`prove export verl`): read as VERL reads it
  dataloader_num_workers: 0                # the dataset must live in the trainer's process
  custom_cls: {path: pkg://prove.integrations.verl.curriculum, name: CurriculumDataset}
  curriculum:                              # `+data.curriculum...` on the command line
    capacity: 256                          # CurriculumConfig's fields
    synth: {seed: 1}                       # SynthConfig of the generator (left out: no generation)
    log: out/curriculum.jsonl
trainer: {use_v1: false}
```

VERL loads the class through `data.custom_cls` (`create_rl_dataset`) and, in its trainer
(`trainer.use_v1=false`: VERL 0.9's v1 trainer calls no dataset hook), calls
`on_batch_end(batch)` after every step: the batch carries each rollout's `uid` (its group), the
row's `extra_info` (the `example_id`) and `token_level_scores` (the reward), from which the
groups go to `Curriculum.update`. The dataset's length is the buffer's, fixed; index `i` is the
example in slot `i` now, as a row in the columns `prove export verl` writes, so VERL's own
sampler (random or sequential) draws from the buffer as it moves. A Parquet file is read as
`RLHFDataset` reads it, so the same `custom_cls` serves the validation files.

Resuming from a checkpoint rebuilds the curriculum from its seed: the buffer's state is not in
VERL's checkpoint.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from prove.curriculum import Curriculum, CurriculumConfig, CurriculumError, SynthGenerator
from prove.integrations import require
from prove.records import Example, read_examples
from prove.synth import SynthConfig

from .export import row

__all__ = ["BufferRows", "CurriculumDataset", "groups"]

require("verl", "verl", "prove.integrations.verl.curriculum")
from verl.utils.dataset.rl_dataset import RLHFDataset  # noqa: E402


def groups(batch: Any) -> list[tuple[str, list[float]]]:
    """A VERL batch's groups as (example id, rewards), in the order the groups first appear.

    The reward of a rollout is the sum of its `token_level_scores` (the score VERL's reward
    manager puts on the last token); its group is its `uid`.
    """
    scores = batch.batch["token_level_scores"].sum(-1).tolist()
    uids = batch.non_tensor_batch["uid"]
    extras = batch.non_tensor_batch["extra_info"]
    out: dict[str, tuple[str, list[float]]] = {}
    for uid, extra, score in zip(uids, extras, scores):
        example_id = extra.get("example_id") if isinstance(extra, Mapping) else None
        if example_id is None:
            raise CurriculumError("a rollout's extra_info has no example_id (rows not written by prove)")
        out.setdefault(str(uid), (str(example_id), []))[1].append(float(score))
    return list(out.values())


class BufferRows:
    """The buffer as `RLHFDataset.dataframe`: slot `i` as a row (a fresh copy each time: VERL edits rows)."""

    def __init__(self, curriculum: Curriculum) -> None:
        self.curriculum = curriculum
        self._rows: dict[str, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self.curriculum.buffer)

    def __getitem__(self, i: int) -> dict[str, Any]:
        import torch.utils.data

        if torch.utils.data.get_worker_info() is not None:
            raise CurriculumError("CurriculumDataset runs in the trainer's process: set data.dataloader_num_workers=0")
        entry = self.curriculum.buffer[int(i)]
        found = self._rows.get(entry.id)
        if found is None:
            if len(self._rows) > 2 * len(self):
                live = {e.id for e in self.curriculum.buffer}
                self._rows = {k: v for k, v in self._rows.items() if k in live}
            found = self._rows[entry.id] = row(Example.model_validate(entry.record), int(i), "train")
        out = copy.deepcopy(found)
        out["extra_info"]["index"] = int(i)
        return out


class CurriculumDataset(RLHFDataset):
    """`data.custom_cls`: PROVE's JSONL files feed a curriculum; Parquet files are read as VERL reads them."""

    def _read_files_and_tokenize(self) -> None:
        files = [str(f) for f in self.data_files]
        if not all(f.endswith((".jsonl", ".jsonl.gz")) for f in files):
            super()._read_files_and_tokenize()
            self.curriculum = None
            return
        options = _plain(self.config.get("curriculum") or {})
        synth = options.pop("synth", None)
        log = options.pop("log", None)
        examples = [ex for f in files for ex in read_examples(f)]
        generator = SynthGenerator.from_config(SynthConfig(**synth)) if synth is not None else None
        self.curriculum = Curriculum(examples, CurriculumConfig(**options), generator=generator, log=log)
        self.dataframe = BufferRows(self.curriculum)

    def on_batch_end(self, batch: Any) -> None:
        """VERL's per-step hook: the step's groups update the curriculum (and its log)."""
        if self.curriculum is not None:
            self.curriculum.update(groups(batch))

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("curriculum", None)   # the generator holds live sessions; resuming rebuilds from the seed
        state.pop("dataframe", None)
        return state


def _plain(value: Any) -> dict[str, Any]:
    """A DictConfig (or a dict) as plain Python."""
    try:
        from omegaconf import OmegaConf

        if OmegaConf.is_config(value):
            return OmegaConf.to_container(value, resolve=True)  # type: ignore[return-value]
    except ImportError:
        pass
    return dict(value)
