"""Verist's text form of a diff: ``format_path``, ``format_value``, ``format_diff``.

Lines are ``+ path: after``, ``- path: before``, ``  path: before → after`` or
``(no changes)``; ``format_path`` prints ``a.b[0].c`` and ``(root)`` for the empty path, as
Verist's ``formatPath`` does (keys are not escaped: a key containing ``.`` prints as is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from intentus_tui.core.verist.diff import DiffEntry, DiffResult, PathKey
from intentus_tui.core.verist.hashing import verist_stringify
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import is_index, js_number_to_string


def format_path(path: Sequence[PathKey]) -> str:
    """Verist's ``formatPath``: ``a.b[0].c``; ``[1]`` for a leading index; ``(root)`` if empty."""
    if not path:
        return "(root)"
    parts: list[str] = []
    for i, p in enumerate(path):
        if is_index(p):
            parts.append(f"[{p}]")
        elif i == 0:
            parts.append(str(p))
        else:
            parts.append(f".{p}")
    return "".join(parts)


def format_value(value: Any) -> str:
    """Verist's ``formatValue``: strings quoted as is, objects in Verist's canonical JSON."""
    if value is MISSING:
        return "(undefined)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int | float):
        return js_number_to_string(value)
    return verist_stringify(value)


def format_entry(entry: DiffEntry) -> str:
    """One line: ``+ path: after``, ``- path: before`` or ``  path: before → after``."""
    path = format_path(entry.path)
    kind = entry.kind
    if kind == "added":
        return f"+ {path}: {format_value(entry.after)}"
    if kind == "removed":
        return f"- {path}: {format_value(entry.before)}"
    return f"  {path}: {format_value(entry.before)} → {format_value(entry.after)}"


def format_diff(result: DiffResult) -> str:
    """Verist's ``formatDiff``: one line per entry, or ``(no changes)``."""
    if result.equal:
        return "(no changes)"
    return "\n".join(format_entry(e) for e in result.entries)
