"""The `prove` command: one module per command group."""

from __future__ import annotations

import typer

from . import bench, curriculum, env, export, reward, serve, synth
from . import eval as eval_cmd

app = typer.Typer(
    name="prove",
    help="PROVE: stateful tool servers, grounded synthesis and programmatic rewards for tool-use RL.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
env.register(app)
serve.register(app)
app.add_typer(eval_cmd.app, name="eval")
app.add_typer(bench.app, name="bench")
app.add_typer(reward.app, name="reward")
app.add_typer(export.app, name="export")
app.add_typer(synth.app, name="synth")
app.add_typer(curriculum.app, name="curriculum")


def main() -> None:
    app()
