"""`python -m prove`: the same as the `prove` command."""

from prove.cli import main

main()
