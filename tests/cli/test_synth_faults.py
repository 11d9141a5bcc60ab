"""`kill -9` of `prove synth --workers 2`: none of its processes remains, and a new run works."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_env_commands import PROVE

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or sys.platform != "linux",
                                reason="finds the run's processes through /proc")
WAIT = 60.0


def group(pgid: int) -> set[int]:
    """Live processes of process group `pgid` (zombies excluded)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def wait_for(condition, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {WAIT}s waiting for {what}")
        time.sleep(0.1)


def test_kill_9_of_a_parallel_run_leaves_no_process(tmp_path: Path) -> None:
    args = ["synth", "--servers", "banking", "--workers", "2", "-o", str(tmp_path / "run"),
            "--cache", str(tmp_path / "cache")]
    run = subprocess.Popen([*PROVE, *args, "--n", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        wait_for(lambda: len(group(run.pid)) >= 4, "the run, its resource tracker and its two workers")
        os.kill(run.pid, signal.SIGKILL)
        run.wait(10)
        wait_for(lambda: not group(run.pid), "every process of the killed run to exit")
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    again = subprocess.run([*PROVE, *args, "--n", "5", "--overwrite"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
