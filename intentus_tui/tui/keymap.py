"""A user keymap: ``keymap.toml`` maps binding ids to keys, e.g. ``replay = "ctrl+r"``.

Looked up in ``$INTENTUS_TUI_KEYMAP`` or the user config dir
(``~/.config/intentus-tui/keymap.toml`` on Linux). Every binding id is listed by ``?``.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path

import platformdirs
from textual.binding import Binding, BindingType


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
        f"keymap {path}: {skipped} {'entry' if skipped == 1 else 'entries'} without a key "
        "string ignored"
        if skipped
        else None
    )


_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
# The debugger's screen: its own keys (everywhere) are also active beside these panes'.
MAIN_SECTIONS = ("Everywhere", "Execution list", "Timeline", "Filter box")
Sections = Sequence[tuple[str, Sequence[BindingType]]]


def key_problem(key: str) -> str | None:
    """Why ``key`` (``ctrl+r``, ``question_mark``, ``F``) names no key a terminal sends,
    or None. A key no terminal sends left its action with no key at all."""
    from textual.keys import KEY_NAME_REPLACEMENTS, Keys

    *modifiers, base = key.strip().split("+")
    unknown = [m for m in modifiers if m not in _MODIFIERS]
    if unknown:
        return f"{key!r}: {unknown[0]!r} is not a modifier (ctrl, shift, alt, meta)"
    if not base:
        return f"{key!r}: no key after its modifiers"
    if len(base) == 1 and base.isprintable():
        return None
    names = {value.rpartition("+")[2] for value in Keys} | set(KEY_NAME_REPLACEMENTS.values())
    if base in names:
        return None
    try:
        unicodedata.lookup(base.replace("_", " "))  # question_mark, full_stop
    except KeyError:
        return f"{key!r}: no key is called {base!r}"
    return None


def checked_keymap(keymap: Mapping[str, str], sections: Sections) -> tuple[dict[str, str], str]:
    """The keymap to apply and what is wrong with it (empty: nothing): ids that name no
    binding are ignored, keys that name no key are dropped (a binding left with none keeps
    its own), and a key given to two bindings that are active together is said (the one
    nearer the focus wins it)."""
    bindings = [
        (title, binding)
        for title, group in sections
        for binding in group
        if isinstance(binding, Binding) and binding.id
    ]
    names: dict[str, str] = {}
    for _, binding in bindings:
        names[binding.id or ""] = binding.description or binding.action
    problems: list[str] = []
    unknown = sorted(binding_id for binding_id in keymap if binding_id not in names)
    if unknown:
        problems.append(f"no binding has the id {', '.join(map(repr, unknown))} (? lists them)")
    kept: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        if binding_id not in names:
            continue
        good = []
        for key in keys.split(","):
            problem = key_problem(key)
            if problem is None:
                good.append(key.strip())
            else:
                problems.append(f"{problem} ({binding_id})")
        if good:
            kept[binding_id] = ",".join(good)
    problems += _clashes(kept, bindings, names)
    return kept, "; ".join(problems)


def _clashes(
    keymap: Mapping[str, str], bindings: list[tuple[str, Binding]], names: Mapping[str, str]
) -> list[str]:
    """A key the keymap gives a binding that another binding active beside it (its own
    section, or the debugger's keys and a pane's) already has."""
    keys_of: dict[str, dict[str, set[str]]] = {}  # section -> key -> binding ids
    for title, binding in bindings:
        assert binding.id is not None
        keys = keymap.get(binding.id, binding.key)
        for key in keys.split(","):
            keys_of.setdefault(title, {}).setdefault(key.strip(), set()).add(binding.id)
    everywhere = keys_of.get(MAIN_SECTIONS[0], {})
    said: set[tuple[str, frozenset[str]]] = set()
    out: list[str] = []
    for title, by_key in keys_of.items():
        pane = title in MAIN_SECTIONS[1:]  # its keys are active beside the debugger's own
        for key, ids in by_key.items():
            together = ids | everywhere.get(key, set()) if pane else ids
            if len(together) < 2 or not any(i in keymap for i in together):
                continue
            mark = (key, frozenset(together))
            if mark in said:
                continue
            said.add(mark)
            what = " and ".join(sorted(repr(names[i]) for i in together))
            out.append(f"{key!r} is both {what}")
    return out
