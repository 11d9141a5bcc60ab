"""Thin adapters to trainers and environment frameworks, on their public hooks only: VERL
(`prove.integrations.verl`), TRL (`prove.integrations.trl`), OpenEnv's protocol
(`prove.integrations.openenv`, served by `prove serve --openenv`) and verifiers
(`prove.integrations.verifiers`).

The trainers are optional: importing this package costs nothing, and each adapter imports its
trainer when it is used, failing with an error that names the extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(ImportError):
    """A trainer integration was used without its optional dependencies installed."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import `module`, or fail with an error that says which extra of prove-rl brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{what} needs `{module.split('.')[0]}`, which is not installed: pip install 'prove-rl[{extra}]' "
            f"({exc})") from exc
