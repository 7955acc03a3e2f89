"""Fixed-width cells: pad or cut text to a number of terminal cells (the debugger's Line-API
rows, the command line's tables)."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

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
