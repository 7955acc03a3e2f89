"""A user keymap: ``keymap.toml`` maps binding ids to keys, e.g. ``replay = "ctrl+r"``.

Looked up in ``$INTENTUS_TUI_KEYMAP`` or the user config dir
(``~/.config/intentus-tui/keymap.toml`` on Linux). Every binding id is listed by ``?``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def keymap_path() -> Path:
    override = os.environ.get("INTENTUS_TUI_KEYMAP")
    if override:
        return Path(override)
    return platformdirs.user_config_path("intentus-tui") / "keymap.toml"


def load_keymap(path: Path | None = None) -> tuple[dict[str, str], str | None]:
    """The keymap (binding id -> comma-separated keys) and a problem to report, if any."""
    path = path or keymap_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        return {}, f"keymap {path} ignored: {exc}"
    import tomllib  # only when there is a keymap: 1 ms of every start otherwise

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return {}, f"keymap {path} ignored: {exc}"
    table = data.get("keymap", data)
    if not isinstance(table, dict):
        return {}, f'keymap {path} ignored: expected a table of binding id = "keys"'
    keymap = {str(k): v for k, v in table.items() if isinstance(v, str) and v.strip()}
    skipped = len(table) - len(keymap)
    return keymap, (
        f"keymap {path}: {skipped} entries without a key string ignored" if skipped else None
    )
