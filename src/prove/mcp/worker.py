"""Entry point of one worker process (`python -m prove.mcp.worker SPEC`), started by `workers.py`."""

from __future__ import annotations

import json
import os
import sys

from ..env.process import exit_with
from .app import serve
from .config import ServeConfig, load_servers
from .workers import TOKEN_ENV


def main(argv: list[str] | None = None) -> None:
    spec = json.loads((argv if argv is not None else sys.argv[1:])[0])
    if spec.get("launcher"):
        exit_with(spec["launcher"])
    load_servers(spec.get("loads", []))
    fields = dict(spec["config"])
    fields["servers"] = tuple(fields["servers"])
    fields["token"] = os.environ.get(TOKEN_ENV) or None
    serve(ServeConfig(**fields))


if __name__ == "__main__":
    main()
