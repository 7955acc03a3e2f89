"""Which columns of an event row fit a pane's width: the mark and seq always; the time,
the agent, the status, the type (full or short), the summary and the waterfall as room
allows. Narrow: the agent goes first (the summary names it anyway), then the status (the
mark says it), the type shortens, then the waterfall goes, then the time shrinks and goes,
so the summary keeps room to say what happened."""

from __future__ import annotations

from typing import NamedTuple

from intentus_tui.tui.presenters.time_cells import SHORT_CLOCK_WIDTH, waterfall_width

TYPE_WIDTH = 19  # AGENT_ATTEMPT_START
AGENT_WIDTH = 16
# A wide pane gives longer agent names their room ("summarizer-claude"), up to this.
WIDE_AGENT_WIDTH = 28
WIDE_PANE = 150
STATUS_WIDTH = 9  # "in flight"

# A narrow pane: the summary (where a fan-out's branches are drawn) needs the room more
# than the status (the mark and the summary already show the result), then more than the
# full type name.
SHORT_TYPE_WIDTH = 10  # "step start"
MIN_SUMMARY_WIDTH = 28
MIN_NARROW_SUMMARY_WIDTH = 20
_SHORT_TYPES = {
    "INTENT_RECEIVED": "intent",
    "AGENT_ATTEMPT_START": "start",
    "AGENT_ATTEMPT_END": "end",
    "FALLBACK_TRIGGERED": "fallback",
    "ROUTER_DECISION": "decision",
    "FINAL_RESPONSE": "final",
    # A WAL's entries: an execution's and a step's start are told apart.
    "execution.created": "run create",
    "execution.started": "run start",
    "execution.in_progress": "run going",
    "execution.completed": "run done",
    "execution.failed": "run failed",
    "execution.aborted": "run abort",
    "step.started": "step start",
    "step.completed": "step done",
    "step.failed": "step fail",
    "step.skipped": "step skip",
}


def short_type(kind: str) -> str:
    """``start`` for ``AGENT_ATTEMPT_START``, ``step fail`` for a WAL's ``step.failed``."""
    return _SHORT_TYPES.get(kind) or kind.rpartition(".")[2] or kind


class RowColumns(NamedTuple):
    """The widths of a row's columns at one pane width (0: left out)."""

    agent: int
    status: bool
    type: int
    time: int
    waterfall: int
    fixed: int  # cells before the summary, and the waterfall's after it


def row_columns(
    width: int, seq_width: int, time_width: int, bars: bool, longest_agent: int = 0
) -> RowColumns:
    """``time_width``: the time column's width (0: no event has a time); ``bars``: some
    attempt has a time, so a waterfall can be drawn; ``longest_agent``: the cells of the
    longest agent name (a wide pane widens the agent column for it)."""
    clock = time_width
    agent = AGENT_WIDTH if width >= 90 + (clock + 1 if clock else 0) else 0
    if agent and width >= WIDE_PANE:
        agent = max(AGENT_WIDTH, min(longest_agent, WIDE_AGENT_WIDTH))
    base = 2 + seq_width + 1 + (agent + 1 if agent else 0) + (clock + 1 if clock else 0)
    shapes = (
        (True, TYPE_WIDTH, MIN_SUMMARY_WIDTH),
        (False, TYPE_WIDTH, MIN_NARROW_SUMMARY_WIDTH),
        (False, SHORT_TYPE_WIDTH, MIN_NARROW_SUMMARY_WIDTH),
    )
    waterfall = waterfall_width(width) if bars else 0
    fixed = base
    for cells in (waterfall, 0) if waterfall else (0,):
        for show_status, type_width, room in shapes:
            fixed = base + type_width + 1 + (STATUS_WIDTH + 1 if show_status else 0)
            fixed += cells + 1 if cells else 0
            if width - fixed >= room:
                return RowColumns(agent, show_status, type_width, clock, cells, fixed)
    if clock > SHORT_CLOCK_WIDTH:
        fixed -= clock - SHORT_CLOCK_WIDTH
        clock = SHORT_CLOCK_WIDTH
    if clock and width - fixed < MIN_NARROW_SUMMARY_WIDTH:
        fixed -= clock + 1
        clock = 0
    return RowColumns(agent, False, SHORT_TYPE_WIDTH, clock, 0, fixed)
