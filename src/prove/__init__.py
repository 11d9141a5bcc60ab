"""PROVE: stateful tool servers, grounded synthesis and programmatic rewards for tool-use RL."""

__version__ = "0.1.0"
