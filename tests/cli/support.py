"""Running the command line as a user does: a real process, its output as text."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

from tests.cli.forker import forked_cli

ROOT = Path(__file__).parents[2]


def deny_capabilities() -> list[str] | None:
    """A prefix that runs a command without root's power to read any file (``[]`` for a
    user who has none), or None when root cannot shed it here."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    fresh: bool = False,
    timeout: float = 60,
    prefix: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``intentus-tui ARGS`` in ``cwd``, with ``env`` (default: this process's): a process
    forked from one that imported the program (``tests.cli.forker``), or with ``fresh`` (or
    an import-time setting changed, or a ``prefix`` command to run it under) a fresh
    interpreter, as the entry point runs."""
    environment = dict(os.environ if env is None else env)
    if not fresh and not prefix:
        where = str(cwd if cwd is not None else os.getcwd())
        done = forked_cli(args, where, environment, timeout)
        if done is not None:
            return done
    return subprocess.run(
        [*prefix, sys.executable, "-m", "intentus_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=timeout,
    )


def run_in_pty(*args: str, cwd: Path, columns: int = 200) -> bytes:
    """The CLI with its stdout and stderr on a pseudo-terminal ``columns`` wide: what a
    user's terminal gets."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    for name in ("NO_COLOR", "COLUMNS", "LINES"):  # the terminal's own size is read
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "intentus_tui.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env={**env, "INTENTUS_TUI_CACHE_DIR": str(cwd / "cache")},
    )
    os.close(follower)
    out = bytearray()
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
    finally:
        os.close(leader)
        proc.wait(timeout=10)
    return bytes(out)
