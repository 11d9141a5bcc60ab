"""The package-level import graph of src/prove has no circle and no import against the direction."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "import_graph.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_the_tree_follows_the_dependency_direction() -> None:
    done = _run()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 circle(s), 0 import(s) against the direction" in done.stdout


def test_circles_and_imports_against_the_direction_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "src" / "prove"
    files = {
        "__init__.py": "",
        "env/__init__.py": "",
        "records.py": "from .env import x\n",
        "reward/__init__.py": "from ..records import y\n",
        "rollout/runner.py": "def f():\n    from ..reward import Scorer\n",  # a lazy import still counts
        "synth/a.py": "import prove.evals.b\n",
        "evals/b.py": "from prove.synth import a\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    done = _run("--root", str(root))
    assert done.returncode == 1
    assert "against the direction: rollout -> reward (prove.rollout.runner)" in done.stdout
    assert "circle: evals -> synth -> evals" in done.stdout
