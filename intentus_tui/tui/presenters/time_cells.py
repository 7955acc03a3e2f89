"""What the timeline shows of time, as plain text: the time column's cell, the waterfall's
cells, the summary's time line, the durations in the chain, and their legend.

Offsets are seconds since the execution started (``+1.234s``); the wall clock is UTC.
A dash means nothing recorded a time for that event: no time is ever guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from intentus_tui.core.records.times import (
    NO_TIME,
    SOURCE_EVENT,
    SOURCE_HEADER,
    SOURCE_RESPONSE,
    SOURCE_WAL,
    AttemptTimes,
    ExecutionTimes,
    Waterfall,
    clock_text,
    duration_text,
    offset_text,
)

TimeMode = Literal["offset", "clock"]
OFFSET_WIDTH = 8  # "+3m12.4s"
CLOCK_WIDTH = 12  # "09:09:07.286"
SHORT_CLOCK_WIDTH = 8  # "09:09:07": a narrow pane keeps the second
MIN_WATERFALL_WIDTH = 12
MAX_WATERFALL_WIDTH = 40

BAR = "█"  # an attempt's span, start to end
OPEN_BAR = "▒"  # an attempt still in flight, start to now
TICK = "·"  # an event's instant on the same axis

SOURCE_NAMES = {
    SOURCE_WAL: "from the WAL",
    SOURCE_EVENT: "the event's own timestamp",
    SOURCE_RESPONSE: "the response's timestamp",
    SOURCE_HEADER: "the record header",
}


def time_width(mode: TimeMode) -> int:
    return CLOCK_WIDTH if mode == "clock" else OFFSET_WIDTH


def time_cell(times: ExecutionTimes, index: int, mode: TimeMode, width: int) -> str:
    """Event ``index``'s time for a column ``width`` wide: its offset, or its UTC wall
    clock (the date is in the event detail), or a dash."""
    if mode == "clock":
        known = times.event_time(index)
        if known is None:
            return NO_TIME
        text = clock_text(known.at)[11:23]  # HH:MM:SS.mmm
        return text if width >= CLOCK_WIDTH else text[:SHORT_CLOCK_WIDTH]
    return offset_text(times.offset(index))


def waterfall_width(pane_width: int) -> int:
    return min(MAX_WATERFALL_WIDTH, max(MIN_WATERFALL_WIDTH, pane_width // 5))


def waterfall_cells(
    waterfall: Waterfall,
    times: ExecutionTimes,
    index: int,
    attempt_of_row: Mapping[int, int],
) -> tuple[str, str | None]:
    """Row ``index``'s waterfall cells and the status to colour them by (None: plain).

    An attempt's start row shows its bar; any other row with a time shows a tick where it
    happened; a row without a time shows nothing."""
    width = waterfall.width
    position = attempt_of_row.get(index)
    bar = waterfall.bars[position] if position is not None else None
    if bar is not None:
        glyph = OPEN_BAR if bar.open else BAR
        text = " " * bar.start + glyph * (bar.end - bar.start)
        return text.ljust(width), "in_flight" if bar.open else bar.status
    offset = times.offset(index)
    if offset is None:
        return " " * width, None
    cell = waterfall.cell(offset)
    return (" " * cell + TICK).ljust(width), None


# Rows read at each end to tell whether most events have a time (a lazy timeline of
# 100,000 rows is not read whole for it).
_SAMPLED_ROWS = 200


def mostly_untimed(times: ExecutionTimes, rows: int, bar_rows: Mapping[int, int]) -> bool:
    """Do fewer than half of ``rows`` events show anything in the waterfall (a bar, from
    ``bar_rows``: row -> attempt, or a tick)? Past a broken log chain no event has a time:
    the column would stand empty beside summaries it cuts."""
    if rows <= 0:
        return False
    sampled = sorted({*range(min(rows, _SAMPLED_ROWS)), *range(max(0, rows - _SAMPLED_ROWS), rows)})
    attempts = times.attempts

    def drawn(index: int) -> bool:
        at = bar_rows.get(index)
        if at is not None and at < len(attempts) and attempts[at].start_offset is not None:
            return True
        return times.offset(index) is not None

    return 2 * sum(1 for index in sampled if drawn(index)) < len(sampled)


def attempt_duration(attempt: AttemptTimes | None, now: datetime | None) -> str | None:
    """``738ms`` (ended), ``open 3m12s`` (in flight, its start known), None (no time)."""
    if attempt is None:
        return None
    if now is not None:
        open_for = attempt.open_for(now)
        if open_for is not None:
            return f"open {duration_text(open_for)}"
    return duration_text(attempt.duration) if attempt.duration is not None else None


def times_text(times: ExecutionTimes | None, now: datetime | None, finished: bool) -> str:
    """How long the execution took (or has been open) and when it started, for the end of
    the counts line; empty when nothing recorded a time."""
    if times is None or times.origin is None:
        return ""
    since = clock_text(times.origin)
    open_attempts = times.open_attempts
    if open_attempts and now is not None:
        oldest = max(a.open_for(now) or 0.0 for a in open_attempts)
        return f"open {duration_text(oldest)} since {since}"
    if finished and times.total:
        return f"took {duration_text(times.total)} from {since}"
    return f"started {since}"


def time_toggle_text(mode: TimeMode, timed: bool, fits: bool) -> str:
    """What ``t`` says: the time the column now shows; that no event has one (``timed``
    false); or that the column does not fit the pane (``fits`` false: at 80 columns it said
    "wall clock (UTC)" over events with no time column)."""
    if not timed:
        return "No event of this execution has a recorded time"
    shown = "wall clock (UTC)" if mode == "clock" else "time since the start"
    if not fits:
        return f"Times: {shown}, but the time column does not fit at this width (z maximises)"
    return f"Time column: {shown}"


def time_legend() -> tuple[str, list[tuple[str, str]]]:
    return (
        "Timeline: time column and waterfall",
        [
            ("+1.234s", "time since the execution started (t: wall clock, UTC)"),
            (NO_TIME, "no time recorded for this event (1.3.0 events carry none)"),
            ("738ms", "an attempt's duration: end − start, or its latency_ms"),
            ("open 3m12s", "an attempt in flight: how long it has been open"),
            (BAR, "waterfall: an attempt from start to end, in its result's colour"),
            (OPEN_BAR, "waterfall: an attempt still in flight, up to now"),
            (TICK, "waterfall: when another event happened"),
        ],
    )
