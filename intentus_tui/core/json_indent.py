"""JSON with ``indent=2``, as ``json.dumps`` writes it, that deep nesting cannot blow up.

``json.dumps(indent=2)`` is quadratic in the nesting: each line is indented to its depth,
and its encoder (Python's: the C one does no indent) passes each piece up through one
generator per level. A 340 KB record whose 100 events each nest 800 arrays deep made a
130 MB snapshot in 4.5 s; ``diff --json`` of a 680 KB one wrote 261 MB in 9 s. Here a value
nested ``FLAT_BELOW`` levels deep is written on one line, as ``json.dumps`` writes it
without an indent (by the C encoder): the same JSON, and the same text for any document
less deep than that.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from typing import Any, NamedTuple

FLAT_BELOW = 64  # levels of containers indented; anything deeper is on one line


def dumps_indented(
    value: Any,
    *,
    ensure_ascii: bool = False,
    allow_nan: bool = True,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """``json.dumps(value, indent=2, ...)``, with containers ``FLAT_BELOW`` levels deep
    written on one line. Raises as ``json.dumps`` does (``ValueError``, ``RecursionError``)."""
    flat: list[str] = []
    marker = f"\x00{secrets.token_hex(16)}:"  # no input string holds it: it is drawn now
    shallow = _cut_deep(value, _Flat(marker, flat, ensure_ascii, allow_nan, default))
    text = json.dumps(
        shallow, ensure_ascii=ensure_ascii, indent=2, allow_nan=allow_nan, default=default
    )
    if not flat:
        return text
    # Each stand-in string comes out as "\u0000<hex>:<n>\u0000" (json escapes NUL always).
    stand_in = re.compile(re.escape(json.dumps(marker)[:-1]) + r'(\d+)\\u0000"')
    return stand_in.sub(lambda m: flat[int(m.group(1))], text)


class _Flat(NamedTuple):
    marker: str
    written: list[str]  # each deep container, written on one line
    ensure_ascii: bool
    allow_nan: bool
    default: Callable[[Any], Any] | None


def _cut_deep(value: Any, flat: _Flat) -> Any:
    """``value`` with each non-empty container ``FLAT_BELOW`` levels deep written on one
    line (in ``flat.written``) and replaced by a stand-in string (``flat.marker``, its index
    there, NUL). Only the containers above are copied; ``value`` itself when nothing is that
    deep."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    deep = False
    while stack and not deep:  # most documents: nothing that deep, nothing copied
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple) and item:
            if depth >= FLAT_BELOW:
                deep = True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    if not deep:
        return value
    return _copy_cut(value, 0, flat)


def _copy_cut(value: Any, depth: int, flat: _Flat) -> Any:
    if not isinstance(value, dict | list | tuple) or not value:
        return value
    if depth >= FLAT_BELOW:
        # Written here, FLAT_BELOW calls deep, as json.dumps(indent=2) would be when it got
        # here: what it could not write for its depth (RecursionError) is not written either.
        flat.written.append(
            json.dumps(
                value,
                ensure_ascii=flat.ensure_ascii,
                allow_nan=flat.allow_nan,
                default=flat.default,
            )
        )
        return f"{flat.marker}{len(flat.written) - 1}\x00"
    # Loops, not comprehensions: one call a level (a comprehension is one more, here).
    if isinstance(value, dict):
        copy: dict[Any, Any] = {}
        for key, item in value.items():
            copy[key] = _copy_cut(item, depth + 1, flat)
        return copy
    items: list[Any] = []
    for item in value:
        items.append(_copy_cut(item, depth + 1, flat))
    return items
