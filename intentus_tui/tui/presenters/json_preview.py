"""A bounded preview of an untrusted JSON value, so a huge payload never freezes the UI.

``preview`` walks at most ``max_nodes`` values and cuts long strings, long arrays and big
objects, marking each cut with what was left out. The result is small enough to
pretty-print and highlight on the UI thread whatever the input was. Pure Python.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from intentus_tui.core.sanitize import sanitize


@dataclass(frozen=True, slots=True)
class Limits:
    max_string: int = 2000  # characters of one string
    max_items: int = 100  # elements of one array, keys of one object
    max_nodes: int = 3000  # values visited in total
    max_depth: int = 24
    max_lines: int = 1500  # lines of the pretty-printed preview


@dataclass(frozen=True, slots=True)
class Preview:
    text: str  # pretty-printed, sanitized JSON (with cut marks inside)
    truncated: bool


class _Walker:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.nodes = 0
        self.truncated = False

    def walk(self, value: Any, depth: int) -> Any:
        self.nodes += 1
        limits = self.limits
        if isinstance(value, str):
            if len(value) > limits.max_string:
                self.truncated = True
                cut = len(value) - limits.max_string
                return (
                    f"{value[: limits.max_string]}…⟪{cut:,} more characters, {len(value):,} in all⟫"
                )
            return value
        if not isinstance(value, dict | list):
            return value
        if depth >= limits.max_depth or self.nodes >= limits.max_nodes:
            self.truncated = True
            kind = "object" if isinstance(value, dict) else "array"
            return f"⟪{kind} of {len(value):,} not shown⟫"
        if isinstance(value, list):
            out: list[Any] = []
            for item in value[: limits.max_items]:
                if self.nodes >= limits.max_nodes:
                    break
                out.append(self.walk(item, depth + 1))
            if len(out) < len(value):
                self.truncated = True
                out.append(f"⟪{len(value) - len(out):,} more items⟫")
            return out
        obj: dict[str, Any] = {}
        for index, (key, item) in enumerate(value.items()):
            if index >= limits.max_items or self.nodes >= limits.max_nodes:
                self.truncated = True
                obj["⟪…⟫"] = f"{len(value) - index:,} more keys"
                break
            obj[str(key)] = self.walk(item, depth + 1)
        return obj


def preview(value: Any, limits: Limits | None = None) -> Preview:
    limits = limits or Limits()
    walker = _Walker(limits)
    bounded = walker.walk(value, 0)
    try:
        text = json.dumps(bounded, indent=2, ensure_ascii=False, allow_nan=True, default=repr)
    except (TypeError, ValueError, RecursionError) as exc:
        text = f"⟪cannot display this value: {exc}⟫"
    truncated = walker.truncated
    if text.count("\n") >= limits.max_lines:
        lines = text.split("\n", limits.max_lines)
        text = "\n".join(lines[: limits.max_lines]) + "\n⟪… more lines not shown⟫"
        truncated = True
    return Preview(sanitize(text), truncated)


def approximate_size(value: Any) -> int:
    """Bytes of ``value`` as compact JSON (what the record spent on it), or -1 if unknown."""
    try:
        return len(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
    except (TypeError, orjson.JSONEncodeError):
        try:
            return len(
                json.dumps(value, ensure_ascii=False, default=repr).encode("utf-8", "replace")
            )
        except (TypeError, ValueError, RecursionError):
            return -1


def human_size(size: int) -> str:
    if size < 0:
        return "unknown size"
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.1f} MiB"
