"""`prove bench`: where the benchmarks live, said clearly when they are absent (an installed wheel)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .test_env_commands import PROVE


def test_missing_benchmarks_say_where_they_live(tmp_path: Path) -> None:
    out = subprocess.run([*PROVE, "bench", "env", "--quick"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PROVE_BENCHMARKS": str(tmp_path)})
    assert out.returncode == 2
    text = " ".join(out.stderr.split())
    assert str(tmp_path / "env.py") in text and "source repository" in text and "PROVE_BENCHMARKS" in text
