"""Joining a Ray cluster, and where actors go on it."""

from __future__ import annotations

from typing import Any

import ray

# Named environment actors live in this namespace, whatever namespace the process that made them runs in.
NAMESPACE = "prove"


def connect(address: str | None = None) -> bool:
    """Join the Ray cluster at `address` unless this process already has; True when this call joined it.

    `address` is what `ray.init` takes: None (`RAY_ADDRESS`, else the cluster last started on this
    machine, else a new local instance), "auto" (an existing cluster, or an error), "local" (a new
    local instance), "HOST:PORT" (a head node's GCS, as `ray start --head` prints it), or
    "ray://HOST:10001" (Ray Client).
    """
    if ray.is_initialized():
        return False
    # A new local instance needs no dashboard; an existing cluster's is its own business.
    extra: dict[str, Any] = {"include_dashboard": False} if address == "local" else {}
    ray.init(address=address, log_to_driver=False, **extra)
    return True


def cluster_cpus() -> int:
    """The CPUs the cluster has, all nodes together."""
    return int(ray.cluster_resources().get("CPU", 0))


def strategy(value: Any) -> Any:
    """A scheduling strategy as Ray takes it: "SPREAD" (every actor on another node while nodes last,
    the default), "DEFAULT" (packed by Ray's hybrid policy), or a strategy object (a placement group's,
    a node-affinity one)."""
    if isinstance(value, str) and value.upper() in ("SPREAD", "DEFAULT"):
        return value.upper()
    if isinstance(value, str):
        raise ValueError(f"scheduling strategy {value!r}: use SPREAD, DEFAULT or a Ray strategy object")
    return value
