"""Fixed-width cells: pad or cut text to a number of terminal cells (the debugger's Line-API
rows, the command line's tables)."""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size, set_cell_size

ELLIPSIS = "…"
# Narrower than this, two texts are cut at their end (``fit_pair``, ``clip_pair``).
_MIN_PAIR_WIDTH = 8
# A text longer than this many characters a cell is measured by its start first (``fit``):
# a start of zero-width characters only (combining marks, bidi controls) is measured whole.
_PREFIX_CHARS = 4


def fit(text: str, width: int, *, align_right: bool = False) -> str:
    """``text`` padded or cut (with an ellipsis) to exactly ``width`` cells."""
    if width <= 0:
        return ""
    if text.isascii():
        if len(text) > width:
            return text[: width - 1] + ELLIPSIS
        return text.rjust(width) if align_right else text.ljust(width)
    if len(text) > _PREFIX_CHARS * width + _PREFIX_CHARS:
        # A text far longer than its cells (a 1 MB intent or agent name): measured whole,
        # each row drawing it took 0.75 s (two rows of the list and the events under a
        # 1 MB name held the screen's thread 3 s). What is cut depends only on its start:
        # a start wider than the row is cut as the whole would be.
        head = text[: _PREFIX_CHARS * width + _PREFIX_CHARS]
        if cell_len(head) > width:
            return set_cell_size(head, width - 1) + ELLIPSIS
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, width - 1) + ELLIPSIS
    padding = " " * (width - length)
    return padding + text if align_right else text + padding


def wider_than(text: str, width: int) -> bool:
    """Whether ``text`` takes more than ``width`` cells; one far longer than that (a 1 MB
    name) is answered from its start when that is wider already, as ``fit`` cuts it."""
    most = _PREFIX_CHARS * width + _PREFIX_CHARS
    if len(text) > most and cell_len(text[:most]) > width:
        return True
    return cell_len(text) > width


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


def fit_pair(a: str, b: str, width_a: int, width_b: int, *, head: int = 0) -> tuple[str, str]:
    """Two texts shown side by side (A's and B's), each in exactly its width of cells, cut so
    that where they differ shows in both (``core.compare.notation.cut_pair``, in cells): at
    their end while that keeps their first difference in, else both from a little before it,
    at the same place, an ellipsis on each side where text is left out.

    ``head``: how many of their first characters (the same in both: an indented key) stay in
    front of such a cut while they take at most half the width: whole, else without their
    leading spaces, else none."""
    start = _pair_start(a, b, width_a, width_b)
    if start is None:
        return fit(a, width_a), fit(b, width_b)
    lead = a[:head] if b[:head] == a[:head] else ""
    for kept in dict.fromkeys((lead, lead.lstrip(" "))):
        size = cell_len(kept)
        if kept and size <= min(width_a, width_b) // 2:
            rest_a, rest_b = a[head:], b[head:]
            inner = _pair_start(rest_a, rest_b, width_a - size, width_b - size) or 0
            return (
                fit(kept + ELLIPSIS + rest_a[inner:], width_a),
                fit(kept + ELLIPSIS + rest_b[inner:], width_b),
            )
    return fit(ELLIPSIS + a[start:], width_a), fit(ELLIPSIS + b[start:], width_b)


def clip_pair(a: str, b: str, width: int) -> tuple[str, str]:
    """``fit_pair``, not padded: each text at most ``width`` cells."""
    start = _pair_start(a, b, width, width)
    if start is not None:
        a, b = ELLIPSIS + a[start:], ELLIPSIS + b[start:]
    return _clip(a, width), _clip(b, width)


def clip_apart(a: str, b: str, width: int) -> tuple[str, str]:
    """``clip_pair`` for two names (the sides of a comparison), also where it is too narrow
    to cut around their difference: from where they differ (``…copy.`` and ``…json``, not
    ``10f1b…`` twice)."""
    from intentus_tui.core.compare.notation import first_difference

    at = first_difference(a, b)
    if width >= _MIN_PAIR_WIDTH or not at or (cell_len(a) <= width and cell_len(b) <= width):
        return clip_pair(a, b, width)
    # A name that is the other's start (a record beside its snapshot, named after its id)
    # has nothing from there: it is shown from its own start, not as a bare "…".
    return _from(a, at, width), _from(b, at, width)


def _from(name: str, at: int, width: int) -> str:
    return _clip(name if at >= len(name) else ELLIPSIS + name[at:], width)


def _clip(text: str, width: int) -> str:
    return text if cell_len(text) <= width else set_cell_size(text, width - 1) + ELLIPSIS


def _pair_start(a: str, b: str, width_a: int, width_b: int) -> int | None:
    """Where both texts begin so that their first difference shows (None: where they do)."""
    # Imported here: the command line's tables use this module and need none of it.
    from intentus_tui.core.compare.notation import first_difference

    at = first_difference(a, b)
    width = min(width_a, width_b)
    if at is None or width < _MIN_PAIR_WIDTH or (_shows(a, width_a, at) and _shows(b, width_b, at)):
        return None
    # As much of what they share as leaves room for the longer one's end; at least a
    # quarter of the width leads up to the difference.
    tail = cell_len((a if len(a) > len(b) else b)[at : at + width])
    room = max(width // 4, width - 1 - tail)
    start = at
    while start > 1 and (size := get_character_cell_size(a[start - 1])) <= room:
        room -= size
        start -= 1
    return start


def _shows(text: str, width: int, at: int) -> bool:
    """Whether ``fit(text, width)`` shows ``text`` up to its character at ``at`` (or its
    end there)."""
    return cell_len(text) <= width or cell_len(text[: at + 1]) <= width - 1
