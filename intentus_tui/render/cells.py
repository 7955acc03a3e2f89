"""Fixed-width cells: pad or cut text to a number of terminal cells (the debugger's Line-API
rows, the command line's tables)."""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size, set_cell_size

ELLIPSIS = "…"


def fit(text: str, width: int, *, align_right: bool = False) -> str:
    """``text`` padded or cut (with an ellipsis) to exactly ``width`` cells."""
    if width <= 0:
        return ""
    if text.isascii():
        if len(text) > width:
            return text[: width - 1] + ELLIPSIS
        return text.rjust(width) if align_right else text.ljust(width)
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, width - 1) + ELLIPSIS
    padding = " " * (width - length)
    return padding + text if align_right else text + padding


def fit_middle(text: str, width: int, head: int) -> str:
    """``text`` in exactly ``width`` cells, cut in its middle when too long: its first
    ``head`` cells, an ellipsis, then as much of its end as fits (``e3151…trunc.json``).
    For names that share their beginning and differ at their end (copies of one record)."""
    if cell_len(text) <= width or head + 2 > width:
        return fit(text, width)
    room = width - head - 1
    start = len(text)
    while start > 0 and (size := get_character_cell_size(text[start - 1])) <= room:
        room -= size
        start -= 1
    return fit(set_cell_size(text, head) + ELLIPSIS + text[start:], width)
