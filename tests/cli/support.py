"""Running the command line as a user does: a real process, its output as text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``intentus-tui ARGS`` in ``cwd`` (a fresh interpreter, as the entry point runs)."""
    return subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
