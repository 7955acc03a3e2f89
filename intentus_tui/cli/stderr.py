"""The command line's one-line messages on stderr (``intentus-tui: ...``).

Piped or redirected, each is one line, byte for byte as given (a script reads it). On a
terminal, a message wider than it is folded at its width by the one fold of the command
line's text (``render.fold``), its continuation lines under the message's start, after
``intentus-tui: ``: the terminal would start them at column 0, under the program's name.
Kept apart from ``common``: the commands that start the debugger do not import that."""

from __future__ import annotations

import os
import sys
from typing import TextIO

import click

PREFIX = "intentus-tui: "


def echo_error(line: str) -> None:
    """``line`` (shown text, ``intentus-tui: `` first) on stderr, folded on a terminal."""
    width = terminal_width(sys.stderr)
    if width is not None:
        from intentus_tui.render.fold import fold_line

        line = "\n".join(
            part for piece in line.split("\n") for part in fold_line(piece, width, len(PREFIX))
        )
    click.echo(line, err=True)


def terminal_width(stream: TextIO) -> int | None:
    """The width of the terminal ``stream`` writes to (``COLUMNS`` first, as
    ``shutil.get_terminal_size`` reads it), or None when it is not one."""
    try:
        if not stream.isatty():
            return None
        columns = int(os.environ.get("COLUMNS", "0") or 0)
        return columns if columns > 0 else os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None
