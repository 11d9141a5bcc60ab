"""PROVE's built-in servers, one package each; registered through the `prove.servers` entry points."""
