"""`RayShards`: a synthesis run's shards as tasks of Ray actors spread over a cluster.

    from functools import partial
    from prove.synth import SynthConfig, run
    from prove.integrations.ray import RayShards
    run(SynthConfig(n=100_000, seed=5), out, workers=32, runner=partial(RayShards, address="auto"))

Each of `workers` actors builds one `Synthesizer` (what a worker process of `prove synth --workers`
builds) and runs the shards sent to it, one at a time; the driver keeps every actor busy and
commits shards in index order, deduplicating as it goes, exactly as with local workers: the run
is resumable as ever, and its files byte-identical to a local run's for the same seed. An actor
lost with its node is restarted by Ray, and its shard run again (a shard depends on the seed and
its index alone).

The actors need this package (and its servers) installed on every node, and a model teacher's
response cache (`--cache`) on storage every node reaches, if the run is to replay exactly.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, InvalidStateError
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import RayError, RayTaskError

from prove.env import ProveError
from prove.synth import SynthConfig, SynthError, Synthesizer
from prove.synth.pipeline import Candidate

from .cluster import cluster_cpus, connect, strategy

__all__ = ["RayShards", "SynthActor"]


class SynthActor:
    """One `Synthesizer` on a Ray worker: shards in, judged candidates out."""

    def __init__(self, config_json: str, cache_dir: str | None) -> None:
        logging.getLogger("prove.env").setLevel(logging.CRITICAL)
        self.synth = Synthesizer(SynthConfig.model_validate_json(config_json),
                                 cache_dir=Path(cache_dir) if cache_dir else None)

    def shard(self, s: int) -> list[Candidate]:
        return self.synth.shard(s)


class RayShards:
    """A `prove.synth.pipeline.ShardRunner` on Ray (see the module docstring).

    Args:
        config: the run's configuration (each actor builds its `Synthesizer` from it).
        workers: actors, each running one shard at a time; 0: one per CPU of the cluster.
        cache_dir: the cache directory the actors read and write.
        address: the cluster to join when this process has not joined one (`connect`).
        num_cpus: CPUs Ray reserves for each actor.
        scheduling: "SPREAD" (default), "DEFAULT", or a Ray scheduling strategy object.
    """

    def __init__(self, config: SynthConfig, workers: int, cache_dir: Path | None, *, address: str | None = None,
                 num_cpus: float = 1.0, scheduling: Any = "SPREAD") -> None:
        self.config = config
        self.workers = workers
        self.cache_dir = cache_dir
        self.address = address
        self.num_cpus = num_cpus
        self.scheduling = scheduling
        self._joined = False
        self._actors: list[Any] = []
        self._load: list[int] = []
        self._lock = threading.Lock()          # the load counts, settled from Ray's callback thread

    def __enter__(self) -> RayShards:
        self._joined = connect(self.address)
        if self.workers < 1:
            self.workers = max(1, int(cluster_cpus() // self.num_cpus))
        # Restarted with its node, and a shard it held run again there: shards are pure functions of the seed.
        cls = ray.remote(SynthActor).options(num_cpus=self.num_cpus, scheduling_strategy=strategy(self.scheduling),
                                             max_restarts=-1, max_task_retries=-1)
        cache = str(self.cache_dir) if self.cache_dir else None
        self._actors = [cls.remote(self.config.model_dump_json(), cache) for _ in range(self.workers)]
        self._load = [0] * self.workers
        return self

    def submit(self, s: int) -> Future[list[Candidate]]:
        """Shard `s` on the least busy actor."""
        with self._lock:
            k = min(range(len(self._actors)), key=lambda i: (self._load[i], i))
            self._load[k] += 1
        ref = self._actors[k].shard.remote(s)
        out: Future[list[Candidate]] = Future()

        def settle(done: Future[list[Candidate]]) -> None:
            with self._lock:
                self._load[k] -= 1
            if done.cancelled():
                out.cancel()
                return
            exc = done.exception()
            try:
                if exc is None:
                    out.set_result(done.result())
                else:
                    out.set_exception(_error(s, exc))
            except InvalidStateError:          # cancelled by the run: its result is not wanted
                pass

        ref.future().add_done_callback(settle)
        return out

    def __exit__(self, *exc: object) -> None:
        # Killing the actors ends the shards still running on them (the run has stopped wanting them).
        for actor in self._actors:
            ray.kill(actor, no_restart=True)
        self._actors = []
        if self._joined:
            ray.shutdown()
            self._joined = False


def _error(s: int, exc: BaseException) -> BaseException:
    """A shard's failure as the pipeline's own error (the framework's, when a worker raised one)."""
    if isinstance(exc, RayTaskError) and isinstance(exc.cause, ProveError):
        return exc.cause
    if isinstance(exc, RayError):
        return SynthError(f"shard {s} failed on Ray: {type(exc).__name__}: {str(exc).strip()[:300]}")
    return exc
