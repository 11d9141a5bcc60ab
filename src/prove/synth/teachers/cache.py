"""An on-disk response cache: a request's canonical JSON -> the response it got.

With the cache, a run can be replayed exactly (the same seed and cache give a byte-identical
dataset) and an interrupted run pays only for the requests it had not made. One SQLite file in
WAL mode, safe for several worker processes.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

__all__ = ["ResponseCache", "request_key"]


def request_key(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ResponseCache:
    def __init__(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def get(self, key: str) -> Any | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO responses (key, value) VALUES (?, ?)", (key, text))

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
