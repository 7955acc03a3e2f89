"""``python -m intentus_tui``: the same program as the ``intentus-tui`` command."""

from intentus_tui.cli import main

main()
