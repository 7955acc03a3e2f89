"""Running the command line as a user does: a real process, its output as text."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli.forker import forked_cli


def cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    fresh: bool = False,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``intentus-tui ARGS`` in ``cwd``, with ``env`` (default: this process's): a process
    forked from one that imported the program (``tests.cli.forker``), or with ``fresh`` (or
    an import-time setting changed) a fresh interpreter, as the entry point runs."""
    environment = dict(os.environ if env is None else env)
    if not fresh:
        where = str(cwd if cwd is not None else os.getcwd())
        done = forked_cli(args, where, environment, timeout)
        if done is not None:
            return done
    return subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=timeout,
    )
