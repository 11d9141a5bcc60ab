"""Process lifetime: a child process that must not outlive the process that started it."""

from __future__ import annotations

import os
import select
import threading
import time

__all__ = ["exit_with"]


def exit_with(pid: int) -> None:
    """End this process as soon as process `pid` (its launcher, its parent) ends, however it ends.

    A pidfd (Linux 5.3+) wakes the watcher the moment `pid` is gone (`kill -9` included);
    elsewhere it polls the parent's PID. Serve workers exit at once so that a restarted launcher
    finds its ports free; synthesis workers exit so that no worker outlives its run.
    """
    if os.getppid() != pid:
        os._exit(1)

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):    # no pidfd here, or `pid` is gone already
            while os.getppid() == pid:
                time.sleep(0.5)
        else:
            select.select([fd], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="prove-parent-watch", daemon=True).start()
