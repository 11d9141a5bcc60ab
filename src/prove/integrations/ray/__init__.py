"""Ray (2.41+): environments and synthesis across a cluster (`pip install 'prove-rl[ray]'`).

- `RayEnvPool` (in `.envs`): a pool of environment actors spread over the cluster's nodes, each
  owning a `prove.env.SessionPool` (leases, idle TTL, a cap, a reaper). `pool.open(servers,
  world)` gives a `RayEnv`, an episode with the interface of `prove.env.Session` and
  `prove.mcp.RemoteEnv`: every call of an episode reaches the actor its ID hashes to, and an
  actor's death ends its episodes with `RayEnvError` (`actor_died`) while the pool puts a new
  actor in its place. `pool.open` is an `EnvFactory`: the rollout runner, the VERL agent loop
  (`env_ray` in its config) and TRL's environments (`environments(..., env=pool.open)`) take it.
- `RayShards` (in `.synth`): `prove synth --ray ADDRESS` runs its shards as tasks of Ray actors,
  committed in index order by the driver, so the dataset is byte-identical to a local run's.

Importing this package imports Ray; `prove.integrations` itself does not.
"""

from __future__ import annotations

from prove.integrations import require

require("ray", "ray", "prove.integrations.ray")

from .cluster import connect  # noqa: E402
from .envs import RayEnv, RayEnvError, RayEnvPool, shared_pool  # noqa: E402
from .synth import RayShards  # noqa: E402

__all__ = ["RayEnv", "RayEnvError", "RayEnvPool", "RayShards", "connect", "shared_pool"]
