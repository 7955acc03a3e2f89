"""Verist's ``normalizeCommands``: the commands a step returned, in a stable, comparable form.

Each command is projected on the fields that define its meaning (runner metadata dropped) and
the list is sorted as Verist sorts it, with JavaScript's ``localeCompare`` approximated by a
root collation (``_locale_compare``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cmp_to_key
from typing import Any, TypeAlias

from intentus_tui.core.verist.hashing import verist_stringify
from intentus_tui.core.verist.missing import MISSING

# The fields that define each command's meaning; runner metadata is dropped.
_COMMAND_FIELDS: dict[str, tuple[str, ...]] = {
    "invoke": ("type", "step", "input"),
    "fanout": ("type", "step", "inputs"),
    "emit": ("type", "topic", "payload"),
    "review": ("type", "reason", "payload"),
    "suspend": ("type", "reason", "checkpoint", "resumeStep"),
}


def _semantic_fields(command: Any) -> Any:
    kind = command.get("type") if isinstance(command, dict) else None
    fields = _COMMAND_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return MISSING  # Verist's switch has no default: unknown commands project to undefined
    return {f: command[f] for f in fields if command.get(f, MISSING) is not MISSING}


def normalize_commands(commands: Sequence[Any] | None) -> list[Any]:
    """Verist's ``normalizeCommands``: semantic projections sorted by type, then step/topic,
    then canonical JSON, each compared as ``localeCompare`` does (see ``_locale_compare``)."""
    if not commands:
        return []

    def compare(x: Any, y: Any) -> int:
        tx, ty = _field(x, "type"), _field(y, "type")
        if tx != ty:
            return _locale_compare(tx, ty)
        if tx in ("invoke", "fanout"):
            c = _locale_compare(_field(x, "step"), _field(y, "step"))
        elif tx == "emit":
            c = _locale_compare(_field(x, "topic"), _field(y, "topic"))
        else:
            c = 0
        if c:
            return c
        return _locale_compare(
            verist_stringify(_semantic_fields(x)), verist_stringify(_semantic_fields(y))
        )

    return [_semantic_fields(c) for c in sorted(commands, key=cmp_to_key(compare))]


def _field(command: Any, name: str) -> str:
    value = command.get(name) if isinstance(command, dict) else None
    return value if isinstance(value, str) else str(value)


# ICU root collation, approximated for the strings commands are sorted by (identifiers and
# canonical JSON): whitespace < punctuation (in CLDR's order) < symbols < digits < letters;
# letters compare by base letter first, then accents, then case (lowercase first).
_PUNCT_ORDER = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_PUNCT_RANK = {c: i for i, c in enumerate(_PUNCT_ORDER)}
_EXPANSIONS = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O"}

_CollationKey: TypeAlias = tuple[tuple[tuple[int, str], ...], tuple[str, ...], tuple[int, ...]]


def _collation_key(text: str) -> _CollationKey:
    primary: list[tuple[int, str]] = []
    accents: list[str] = []
    case: list[int] = []
    expanded = "".join(_EXPANSIONS.get(ch, ch) for ch in text)
    for ch in unicodedata.normalize("NFD", expanded):
        if unicodedata.combining(ch):
            if accents:
                accents[-1] += ch
            continue
        if ch.isspace():
            primary.append((0, ch))
        elif ch in _PUNCT_RANK:
            primary.append((1, chr(_PUNCT_RANK[ch])))
        elif ch.isdigit():
            primary.append((3, ch))
        elif ch.isalpha():
            primary.append((4, ch.casefold()))
            accents.append("")
            case.append(1 if ch.isupper() else 0)
        else:
            primary.append((2, ch))
    return tuple(primary), tuple(accents), tuple(case)


def _locale_compare(x: str, y: str) -> int:
    """An approximation of JavaScript's default ``String.prototype.localeCompare``."""
    kx, ky = _collation_key(x), _collation_key(y)
    if kx != ky:
        return -1 if kx < ky else 1
    if x != y:
        return -1 if x < y else 1
    return 0
