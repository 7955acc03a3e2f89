"""JSON Lines: one JSON value per line, as the exports write them.

Each line is compact UTF-8 JSON ending in ``\\n``. Values that JSON cannot hold are written
as ``inspect --json`` writes them (NaN and the infinities as their names, an unpaired
surrogate, a file name's byte that is not UTF-8, as its ``\\u`` escape), and the
characters a terminal would act on are escaped (the same value, written ``\\u...``), so
``cat``-ing an export is as safe as text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from intentus_tui.core.sanitize import json_finite, json_text_safe


def json_line(value: Any) -> bytes:
    """``value`` as one line of JSON Lines (compact, newline-terminated, terminal-safe)."""
    return _json_bytes(value) + b"\n"


def _json_bytes(value: Any) -> bytes:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(json_finite(value), ensure_ascii=False, separators=(",", ":"))
    return json_text_safe(text).encode("utf-8")


PART_BYTES = 1024 * 1024  # how much of a streamed line is written at a time


def json_line_parts(value: Any, mark: str, items: Iterable[Any]) -> Iterator[bytes]:
    """The bytes of ``json_line`` of ``value`` with ``items`` in place of the string
    ``mark`` in a list of it (``[..., mark]``), in parts of about ``PART_BYTES``: the
    items are made and written one at a time, so a line of hundreds of megabytes is never
    held whole. ``mark`` must occur once, as that list's last value, and nowhere else."""
    head, found, tail = _json_bytes(value).partition(_json_bytes(mark))
    if not found or _json_bytes(mark) in tail:
        raise ValueError("a streamed line's place for its items was not found once")
    part = [head.removesuffix(b",")] if head.endswith(b",") else [head]
    size, first = len(part[0]), not head.endswith(b",")
    for item in items:
        text = _json_bytes(item)
        part.append(text if first else b"," + text)
        first = False
        size += len(text) + 1
        if size >= PART_BYTES:
            yield b"".join(part)
            part, size = [], 0
    part.append(tail + b"\n")
    yield b"".join(part)
