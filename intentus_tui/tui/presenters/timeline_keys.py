"""What the timeline's stepping keys say when they cannot do what their name says: a key
that moves the cursor says where it went, and one that cannot move says why."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from intentus_tui.core.actions import EventRow


def no_fallback_step(
    note: str, attempts: Sequence[int], row: EventRow | None, forward: bool, keys: str
) -> str:
    """``f`` (or ``F``) where no fallback was recorded: ``note`` (how the attempts ran),
    then where it stepped instead: to ``row``, where one of ``attempts`` (the rows where
    each begins, sorted) begins, or nowhere (None). ``keys``: the attempt keys' names."""
    if not attempts:
        return note
    if row is None:
        said = f"{note}; no attempt {'after' if forward else 'before'} this event"
    else:
        count = len(attempts)
        number = bisect_left(attempts, row.index) + 1
        which = "its attempt" if count == 1 else f"attempt {number} of {count}"
        at = "" if row.seq is None else f" at #{row.seq}"
        where = f", {row.agent}{at}" if row.agent else at
        said = f"{note}; moved to {which}{where}"
    return said if len(attempts) == 1 else f"{said} ({keys}: next/previous attempt)"


# The timeline's own keys, which act on nothing anywhere else (its moves up and down, and
# back, have a meaning on the list too).
TIMELINE_ONLY = frozenset(
    f"timeline.{name}"
    for name in (
        "next-fallback",
        "prev-fallback",
        "next-attempt",
        "prev-attempt",
        "next-error",
        "prev-error",
        "time-mode",
    )
)


def timeline_key_elsewhere(key: str, description: str, open_key: str) -> str:
    """A timeline key pressed on the list: what it does, where, and how to get there."""
    return f"{key} ({description}) works in an execution's timeline: open one first ({open_key})"


def full_screen_elsewhere(key: str, how_to_compare: str, open_key: str | None) -> str:
    """``key`` pressed where it shows a comparison full screen, with none to show, when a
    timeline takes the same key for its next fallback: that nothing is compared
    (``how_to_compare``: its shortest form) and what the key does in a timeline
    (``open_key``: how to open one from here, when the list has the focus). Three rows of
    an 80-column toast at most: six covered the side pane."""
    opening = f" ({open_key} opens one)" if open_key else ""
    return f"Nothing compared yet: {how_to_compare}. In a timeline, {key} is next fallback{opening}"
