"""`intentus-tui --version` says which native helpers are active, run as a real subprocess."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from intentus_tui import __version__
from intentus_tui.core import native


def version(*, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "INTENTUS_TUI_PURE_PYTHON"}
    if pure:
        env["INTENTUS_TUI_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_version_names_every_native_helper_that_is_active() -> None:
    line = version(pure=False)
    if importlib.util.find_spec("intentus_tui.core._speedups") is None:
        assert (
            line == f"intentus-tui {__version__} (native helpers: off - pure Python; not built)\n"
        )
        return
    from intentus_tui.core import _speedups

    built = [name for name in native.__annotations__ if hasattr(_speedups, name)]
    assert built, "the extension is built but no helper of core.native comes from it"
    assert line == f"intentus-tui {__version__} (native helpers: active: {', '.join(built)})\n"


def test_version_says_pure_python_when_the_helpers_are_turned_off() -> None:
    assert version(pure=True) == (
        f"intentus-tui {__version__} (native helpers: off - pure Python;"
        " INTENTUS_TUI_PURE_PYTHON is set)\n"
    )


def test_python_dash_m_on_the_package_runs_the_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "intentus_tui", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"intentus-tui {__version__} (native helpers: ")
