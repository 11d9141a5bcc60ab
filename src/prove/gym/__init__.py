"""A Gymnasium-style API over PROVE's episodes: `prove.gym.make(...)`, `reset`, `step`.

    import prove.gym
    env = prove.gym.make("prove/banking-v0")          # or a dataset path, an Example, a list of them
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step({"role": "assistant", "content": "..."})

Registered ids:

- `prove/<server>-v0` for every registered server: the examples of a small verified dataset of
  that server, synthesized on first use (`prove synth --servers SERVER --n 50 --seed 0`, the
  programmatic teacher: no model) and kept under `$PROVE_CACHE` (default `~/.cache/prove`)/gym;
- `register_dataset(path, name)` adds `name` (every example of a dataset) and `name-<server>`
  (the examples of each server in it); `register(id, examples)` adds any other.

Importing this module imports neither Gymnasium nor NumPy. When Gymnasium is installed,
`register_gymnasium()` mirrors every id into its registry (done at import when Gymnasium is
already imported, so `gymnasium.make("prove.gym:prove/banking-v0")` works as is), with
`gymnasium_env.GymnasiumEnv`, a `gymnasium.Env`, as the entry point.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..env import registry as servers
from ..records import Example, read_examples
from .env import ProveEnv, assistant_message

__all__ = ["ProveEnv", "assistant_message", "ids", "make", "register", "register_dataset", "register_gymnasium",
           "load_examples", "server_examples"]

SERVER_EXAMPLES = 50
_ids: dict[str, Callable[[], list[Example]]] = {}
_mirrored = False


def cache_dir() -> Path:
    return Path(os.environ.get("PROVE_CACHE") or Path.home() / ".cache" / "prove") / "gym"


def server_examples(server: str, n: int = SERVER_EXAMPLES, seed: int = 0) -> list[Example]:
    """A verified dataset of one server, synthesized once (deterministic for `n` and `seed`) and cached."""
    from ..synth import SynthConfig, run
    from ..synth.rundir import RunDir

    out = cache_dir() / f"{server}-n{n}-seed{seed}"
    dataset = RunDir(out).dataset
    if not dataset.is_file():
        run(SynthConfig(n=n, seed=seed, servers=[server]), out, cache_dir=cache_dir() / "synth-cache")
    return read_examples(dataset)


def load_examples(path: str | Path) -> list[Example]:
    """The examples of a dataset file, or of the directory `prove synth --out` wrote."""
    from ..synth.rundir import RunDir

    path = Path(path)
    return read_examples(RunDir(path).dataset if path.is_dir() else path)


def register(env_id: str, examples: Iterable[Example] | Callable[[], list[Example]]) -> str:
    """Make `env_id` a name for episodes of `examples` (a list, or a function that loads them on first use)."""
    if callable(examples):
        loader = examples
    else:
        fixed = list(examples)

        def loader() -> list[Example]:
            return fixed

    _ids[env_id] = loader
    if _mirrored:
        _to_gymnasium(env_id)
    return env_id


def register_dataset(path: str | Path, name: str) -> list[str]:
    """Register `name` (every example of the dataset) and `name-<server>` for each server in it."""
    examples = load_examples(path)
    made = [register(name, examples)]
    for server in sorted({s for ex in examples for s in ex.servers}):
        made.append(register(f"{name}-{server}", [ex for ex in examples if server in ex.servers]))
    return made


def ids() -> list[str]:
    """Every registered id."""
    return sorted(_ids)


def make(target: str | Path | Example | Sequence[Example], **kwargs: Any) -> ProveEnv:
    """A `ProveEnv` over a registered id, a dataset (its file or `prove synth --out` directory),
    one example or a list of them. Keyword arguments go to `ProveEnv` (config, limits, env, call_timeout)."""
    if isinstance(target, Example):
        examples = [target]
    elif isinstance(target, (str, Path)):
        key = str(target)
        if key in _ids:
            examples = _ids[key]()
        elif Path(key).exists():
            examples = load_examples(key)
        else:
            raise KeyError(f"no environment {key!r}: neither a registered id (prove.gym.ids()) nor a dataset path")
    else:
        examples = list(target)
    return ProveEnv(examples, **kwargs)


def register_gymnasium() -> None:
    """Mirror every id (and every one registered later) into Gymnasium's registry."""
    global _mirrored
    _mirrored = True
    for env_id in _ids:
        _to_gymnasium(env_id)


def _to_gymnasium(env_id: str) -> None:
    import gymnasium

    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point="prove.gym.gymnasium_env:GymnasiumEnv",
                           kwargs={"target": env_id}, disable_env_checker=False)


def _server_loader(name: str) -> Callable[[], list[Example]]:
    def load() -> list[Example]:
        return server_examples(name)

    return load


for _name in servers.names():
    register(f"prove/{_name}-v0", _server_loader(_name))

if "gymnasium" in sys.modules:
    register_gymnasium()
