"""The core stays light: rollouts and the integrations' plain modules import no trainer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from prove.integrations import MissingExtraError, require


def test_light_modules_import_no_deep_learning_framework() -> None:
    code = ("import sys, prove.rollout, prove.cli.eval, prove.integrations, prove.integrations.verl, "
            "prove.integrations.trl, prove.integrations.verl.export, prove.integrations.verl.reward, "
            "prove.integrations.verl.schema, prove.gym, prove.integrations.openenv\n"
            "heavy = [m for m in ('torch', 'verl', 'trl', 'transformers', 'ray', 'pyarrow', 'numpy', 'gymnasium', "
            "'openenv', 'verifiers') if m in sys.modules]\n"
            "assert not heavy, heavy")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_a_missing_extra_is_named() -> None:
    with pytest.raises(MissingExtraError, match=r"pip install 'prove-rl\[verl\]'"):
        require("prove_no_such_module", "verl", "the VERL agent loop")


def test_the_verifiers_adapter_names_its_extra() -> None:
    import importlib.util

    if importlib.util.find_spec("verifiers") is not None:
        pytest.skip("verifiers is installed here")
    with pytest.raises(MissingExtraError, match=r"pip install 'prove-rl\[verifiers\]'"):
        import prove.integrations.verifiers  # noqa: F401
