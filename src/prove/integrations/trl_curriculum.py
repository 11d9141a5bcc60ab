"""TRL (1.16) hooks for an online curriculum: a streamed training set drawn from the buffer, and a
callback that hands each step's rewards to it.

```python
from prove.curriculum import Curriculum, CurriculumConfig, SynthGenerator
from prove.integrations.trl import environments, trl_reward
from prove.integrations.trl_curriculum import CurriculumCallback, stream

cur = Curriculum(examples, CurriculumConfig(capacity=256), generator=SynthGenerator.from_config(SynthConfig(seed=1)))
feedback = CurriculumCallback(cur)
trainer = GRPOTrainer(model, reward_funcs=[feedback.reward(trl_reward())], train_dataset=stream(cur),
                      environment_factory=environments(examples), callbacks=[feedback],
                      args=GRPOConfig(max_steps=..., shuffle_dataset=False, ...))
```

`stream(curriculum)` is a `datasets.IterableDataset` whose rows (`prove.integrations.trl.rows`,
first turns) are drawn from the buffer as TRL reads them, so examples generated or retired at a
step are seen from the next rows on. TRL repeats each prompt `num_generations` times in the
stream (an iterable dataset needs `max_steps`); leave `shuffle_dataset` off, since a buffered
shuffle would read a thousand rows ahead of the buffer. `CurriculumCallback.reward(fn)` wraps a
reward function: it returns `fn`'s rewards unchanged and records each completion's reward under
its row's `example_id`; at the end of every optimisation step (`TrainerCallback.on_step_end`) the
rollouts recorded so far go to `Curriculum.update`, one group per run of consecutive rollouts of
one example (TRL keeps a prompt's generations together). `environments(examples)` must cover
the servers of the generated examples too: build it from every server the generator may use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from prove.curriculum import Curriculum
from prove.integrations import require
from prove.records import Example

from .trl import rows

__all__ = ["CurriculumCallback", "stream"]

require("trl", "train", "prove.integrations.trl_curriculum")
from transformers import TrainerCallback  # noqa: E402


def stream(curriculum: Curriculum) -> Any:
    """An endless `datasets.IterableDataset` of rows drawn from the curriculum's buffer."""
    import datasets

    def generate() -> Iterator[dict[str, Any]]:
        while True:
            entry = curriculum.draw(1)[0]
            yield rows([Example.model_validate(entry.record)])[0]

    text = datasets.Value("string")
    features = datasets.Features({"prompt": datasets.List(datasets.Json()), "example_id": text,
                                  "world": datasets.Value("int64"), "environment": text,
                                  "turn": datasets.Value("int64"), "ground_truth": text})
    return datasets.IterableDataset.from_generator(generate, features=features)


class CurriculumCallback(TrainerCallback):
    """Records rewards through `reward(fn)` and updates the curriculum at each step's end."""

    def __init__(self, curriculum: Curriculum) -> None:
        self.curriculum = curriculum
        self.pending: list[tuple[str, float]] = []

    def reward(self, fn: Callable[..., list[float]]) -> Callable[..., list[float]]:
        """`fn`, recording each completion's reward by its row's `example_id`."""
        @functools.wraps(fn)
        def recorded(*args: Any, **kwargs: Any) -> list[float]:
            out = fn(*args, **kwargs)
            ids = kwargs.get("example_id")
            if isinstance(ids, (list, tuple)) and len(ids) == len(out):
                self.pending.extend((str(i), float(r)) for i, r in zip(ids, out) if r is not None)
            return out
        return recorded

    def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> Any:
        if not self.pending:
            return control
        groups: list[tuple[str, list[float]]] = []
        for example_id, r in self.pending:
            if groups and groups[-1][0] == example_id:
                groups[-1][1].append(r)
            else:
                groups.append((example_id, [r]))
        self.pending = []
        self.curriculum.update(groups)
        return control
