"""Settings the debugger remembers between runs (the theme, for now): a small JSON file in
the user config dir (``~/.config/intentus-tui/settings.json`` on Linux), or
``$INTENTUS_TUI_SETTINGS``.

A missing or broken file means the defaults; a file that cannot be written loses the
setting, never the session (the operator is told once). Also where a screenshot goes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs

from intentus_tui.core.fsio import atomic_write


def settings_path() -> Path:
    override = os.environ.get("INTENTUS_TUI_SETTINGS")
    if override:
        return Path(override)
    return platformdirs.user_config_path("intentus-tui") / "settings.json"


def load_settings(path: Path | None = None) -> dict[str, Any]:
    """The remembered settings, or ``{}`` when there are none or the file is broken."""
    try:
        data = json.loads((path or settings_path()).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember(key: str, value: Any, path: Path | None = None) -> str | None:
    """Store one setting (the others kept); a problem to report, or None."""
    path = path or settings_path()
    settings = load_settings(path)
    if settings.get(key) == value:
        return None
    settings[key] = value
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(settings, indent=2, sort_keys=True).encode() + b"\n")
    except OSError as exc:
        return f"cannot remember the {key} in {path}: {exc.strerror or exc}"
    return None


def screenshot_directory() -> Path:
    """Where a screenshot goes: Downloads, else the current directory, else the user cache
    directory (created), whichever exists and can be written to first."""
    for candidate in (platformdirs.user_downloads_path(), Path.cwd()):
        if candidate.is_dir() and os.access(candidate, os.W_OK):
            return candidate
    cache = platformdirs.user_cache_path("intentus-tui") / "screenshots"
    cache.mkdir(parents=True, exist_ok=True)
    return cache
