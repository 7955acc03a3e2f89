"""The selected execution's timeline: a summary (state, the attempts as a chain or a
fan-out, crash point, salvage) above a Line-API list of its events, so 100,000 events open and step instantly."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from intentus_tui.core.actions import EventRow, ExecutionState, claims_only
from intentus_tui.core.model import Verdict
from intentus_tui.tui.presenters.event_columns import (
    STATUS_WIDTH,
    TYPE_WIDTH,
    WIDE_AGENT_WIDTH,
    WIDE_PANE,
    RowColumns,
    row_columns,
    short_type,
)
from intentus_tui.tui.presenters.time_cells import (
    TimeMode,
    mostly_untimed,
    time_cell,
    time_toggle_text,
    time_width,
    waterfall_cells,
)
from intentus_tui.tui.presenters.timeline_keys import no_fallback_step
from intentus_tui.tui.presenters.timeline_summary import (
    SummaryText,
    summary_content,
    wal_summary_content,
)

if TYPE_CHECKING:  # not imported at start: the first frame should not wait for them
    from intentus_tui.core.actions import (
        ExecutionDetail,
        ExecutionTimes,
        Timeline,
        WalLog,
        Waterfall,
    )
from intentus_tui.render.cells import fit
from intentus_tui.tui.widgets.clamped_text import ClampedText
from intentus_tui.tui.widgets.strip_cache import StripCachedView


def event_mark(row: EventRow) -> str:
    if row.in_flight:
        return "◌"
    if row.is_fallback:
        return "↪"
    if row.is_error:
        return "✗"
    if row.status == "ok":
        return "✓"
    return " "


class EventLines(StripCachedView[tuple[int, int, bool], Strip], can_focus=True):
    """The events of one execution, one line each, with a cursor; when times were recorded,
    each event's time and the attempts' waterfall."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Next event", show=False, id="timeline.down"),
        Binding("up,k", "cursor_up", "Previous event", show=False, id="timeline.up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="timeline.page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="timeline.page-up"),
        Binding("home,g", "first", "First event", show=False, id="timeline.first"),
        Binding("end,G", "last", "Last event", show=False, id="timeline.last"),
        Binding("f", "next_fallback", "Next fallback", id="timeline.next-fallback"),
        Binding("F", "previous_fallback", "Prev fallback", show=False, id="timeline.prev-fallback"),
        Binding("a", "next_attempt", "Next attempt", show=False, id="timeline.next-attempt"),
        Binding("A", "previous_attempt", "Prev attempt", show=False, id="timeline.prev-attempt"),
        Binding("e", "next_error", "Next error", id="timeline.next-error"),
        Binding("E", "previous_error", "Prev error", show=False, id="timeline.prev-error"),
        # The app's action, run as the key arrives (priority): see the list's "list.open".
        Binding(
            "escape,left,h",
            "app.back_to_list",
            "Back to list",
            show=False,
            id="timeline.back",
            priority=True,
        ),
        Binding("t", "toggle_time", "Time: offset/clock", show=False, id="timeline.time-mode"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "event-lines--cursor",
        "event-lines--dim",
        "event-lines--fallback",
        "event-lines--error",
        "event-lines--ok",
        "event-lines--in-flight",
        "event-lines--break",
    }

    class Highlighted(Message):
        """The cursor moved to event ``index`` (``None``: no events)."""

        def __init__(self, index: int | None) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: Sequence[EventRow] = ()
        self.trailer: tuple[tuple[str, str], ...] = ()  # (text, component class) after events
        self.cursor = 0
        self._fallbacks: list[int] = []
        self._errors: list[int] = []
        self._attempts: list[int] = []
        # What ``f`` says when the attempts form no fallback chain (a broadcast, say).
        self._no_fallback_note: str | None = None
        self._seq_width = 3
        self._agent_width = 0  # the longest agent name among the rows
        self.times: ExecutionTimes | None = None
        self.time_mode: TimeMode = "offset"
        self.now: datetime | None = None  # for an in-flight attempt's bar, up to now
        self._attempt_of_row: Mapping[int, int] = {}
        self._waterfall: Waterfall | None = None
        self.claimed = False  # an untrusted execution's: its successes are only claims
        self._sparse_times = False  # most events have no time: see ``_columns``

    def set_rows(
        self,
        rows: Sequence[EventRow],
        trailer: tuple[tuple[str, str], ...] = (),
        cursor: int = 0,
        jumps: tuple[Sequence[int], Sequence[int]] | None = None,
        *,
        attempts: Sequence[int] = (),
        no_fallback_note: str | None = None,
        times: ExecutionTimes | None = None,
        attempt_of_row: Mapping[int, int] | None = None,
        claimed: bool = False,
        agents: Sequence[str] | None = None,
    ) -> None:
        """``jumps``: (fallback rows, error rows) when known, so a lazy 100,000-row
        timeline is not built whole just to find them. ``attempts``: the row where each
        attempt begins, ``agents`` its agent when known (else read from those rows);
        ``no_fallback_note``: how the attempts ran when no fallback did.
        ``times``: the events' and attempts' times; ``attempt_of_row``: the attempt (its
        position in ``times.attempts``) that begins on a row. ``claimed``: the execution is
        untrusted: no success is shown in the success colour."""
        self.rows = rows
        self.claimed = claimed
        self.trailer = trailer
        self.times = times
        self._attempt_of_row = attempt_of_row or {}
        self._waterfall = None
        self._sparse_times = (
            times is not None
            and times.attempt_times_known
            and mostly_untimed(times, len(rows), self._attempt_of_row)
        )
        if jumps is None:
            jumps = (
                [r.index for r in rows if r.is_fallback],
                [r.index for r in rows if r.is_error],
            )
        self._fallbacks, self._errors = list(jumps[0]), list(jumps[1])
        self._attempts = sorted(attempts)
        self._no_fallback_note = no_fallback_note
        seqs = [r.seq for r in (rows[0], rows[-1]) if r.seq is not None] if rows else []
        self._seq_width = max(3, *(len(str(s)) for s in seqs)) if seqs else 3
        # The longest agent name, of the attempts (a lazy timeline of 100,000 rows is not
        # built whole for it: the rows where 16,000 attempts begin took 0.7 s to build).
        # Its start only: the column is at most WIDE_AGENT_WIDTH wide, and a 4 MB name
        # measured whole took 0.6 s of each selection.
        most = 4 * WIDE_AGENT_WIDTH
        names = agents if agents is not None else [rows[i].agent for i in attempts]
        self._agent_width = max((cell_len(name[:most]) for name in names), default=0)
        self._strips.clear()
        self._update_virtual_size()
        self.cursor = max(0, min(cursor, len(rows) - 1))
        self.scroll_to(y=0, animate=False, immediate=True)
        self._scroll_cursor_into_view()
        self.refresh()
        self.post_message(self.Highlighted(self.cursor if rows else None))

    # ------------------------------------------------------------------ movement

    def move_to(self, index: int) -> None:
        if not self.rows:
            return
        index = max(0, min(index, len(self.rows) - 1))
        if index != self.cursor:
            self.refresh_line(self.cursor)
            self.cursor = index
            self.refresh_line(index)
            self.post_message(self.Highlighted(index))
        self._scroll_cursor_into_view()

    def on_resize(self, event: events.Resize) -> None:
        # Fewer rows (``z``, whose summary takes more lines; a smaller terminal): the event
        # shown below stays in sight (it was scrolled off, "event 9 of 14" under rows 2-5).
        self.call_after_refresh(self._scroll_cursor_into_view)

    def _scroll_cursor_into_view(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor - 1)

    def action_page_down(self) -> None:
        self.move_to(self.cursor + max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self.move_to(self.cursor - max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self.rows) - 1)

    def _target(self, marks: list[int], forward: bool) -> int | None:
        if forward:
            position = bisect_right(marks, self.cursor)
            return marks[position] if position < len(marks) else None
        position = bisect_left(marks, self.cursor) - 1
        return marks[position] if position >= 0 else None

    def _jump(self, marks: list[int], forward: bool, what: str) -> None:
        target = self._target(marks, forward)
        if target is None:
            direction = "after" if forward else "before"
            self.app.bell()
            self.notify(f"No {what} {direction} this event", timeout=2)
            return
        self.move_to(target)

    def _fallback_or_attempt(self, forward: bool) -> None:
        """A fallback chain: its next fallback. No fallback at all (a broadcast, a parallel
        or a single attempt): step to the next attempt, saying how the attempts ran and
        where it went (or that none is left, staying put)."""
        if self._fallbacks or self._no_fallback_note is None:
            self._jump(self._fallbacks, forward, "fallback")
            return
        target = self._target(self._attempts, forward)
        row = None if target is None else self.rows[target]
        keys = "/".join(self._key_for(b) for b in ("next-attempt", "prev-attempt"))
        note = no_fallback_step(self._no_fallback_note, self._attempts, row, forward, keys)
        self.notify(note, timeout=3, markup=False)  # agent names are record text
        if target is None:
            self.app.bell()
        else:
            self.move_to(target)

    def _key_for(self, name: str) -> str:
        """The key bound to ``timeline.<name>`` now (a user keymap may have moved it)."""
        binding_id = f"timeline.{name}"
        keymap: dict[str, str] = getattr(self.app, "keymap", {})
        default = next(
            b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == binding_id
        )
        key = keymap.get(binding_id, default).split(",")[0].strip()
        return self.app.get_key_display(Binding(key, ""))

    def action_next_fallback(self) -> None:
        self._fallback_or_attempt(True)

    def action_previous_fallback(self) -> None:
        self._fallback_or_attempt(False)

    def action_next_attempt(self) -> None:
        self._jump(self._attempts, True, "attempt")

    def action_previous_attempt(self) -> None:
        self._jump(self._attempts, False, "attempt")

    def action_next_error(self) -> None:
        self._jump(self._errors, True, "error")

    def action_previous_error(self) -> None:
        self._jump(self._errors, False, "error")

    def action_toggle_time(self) -> None:
        """The time column: time since the start, or the wall clock (UTC)."""
        self.time_mode = "clock" if self.time_mode == "offset" else "offset"
        timed = self.times is not None and self.times.events_timed
        fits = bool(self._columns(self.scrollable_content_region.width).time)
        self.notify(time_toggle_text(self.time_mode, timed, fits), timeout=2 if fits else 5)
        self.redraw()

    def set_now(self, now: datetime) -> None:
        """The clock moved on: an in-flight attempt's bar grows (the axis rescales)."""
        self.now = now
        self.redraw()

    def redraw(self) -> None:
        self._waterfall = None
        self._strips.clear()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            row = round(self.scroll_y) + offset.y
            if row < len(self.rows):
                self.move_to(row)

    # ------------------------------------------------------------------ rendering

    def _virtual_height(self) -> int:
        return len(self.rows) + len(self.trailer)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = round(self.scroll_y) + y
        if row >= len(self.rows):
            extra = row - len(self.rows)
            if extra < len(self.trailer):
                text, name = self.trailer[extra]
                return Strip([Segment(fit(text, width), self._style(name))], width)
            return Strip.blank(width, self.rich_style)
        is_cursor = row == self.cursor
        key = (row, width, is_cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = self._render_row(self.rows[row], width, is_cursor)
        return strip

    def _render_row(self, row: EventRow, width: int, is_cursor: bool) -> Strip:
        base = self.rich_style
        if row.in_flight:
            base += self._style("event-lines--in-flight")
        elif row.is_fallback:
            base += self._style("event-lines--fallback")
        elif row.is_error:
            base += self._style("event-lines--error")
        cursor = self._style("event-lines--cursor") if is_cursor else None
        dim = base + self._style("event-lines--dim")
        status_style, mark_style = base, base
        if row.status == "ok":
            status_style = dim if self.claimed else base + self._style("event-lines--ok")
            mark_style = dim if self.claimed else base
        elif row.status == "error":
            status_style = base + self._style("event-lines--error")
        if cursor is not None:
            base, dim, status_style = base + cursor, dim + cursor, status_style + cursor
            mark_style += cursor
        seq = "" if row.seq is None else str(row.seq)
        columns = self._columns(width)
        summary = row.summary
        status = "in flight" if row.in_flight else row.status
        if row.in_flight and not columns.status:  # the one status the mark alone cannot say
            summary = f"in flight  {summary}"
        kind = row.type if columns.type == TYPE_WIDTH else short_type(row.type)
        segments = [
            Segment(f"{event_mark(row)} ", mark_style),
            Segment(fit(seq, self._seq_width, align_right=True) + " ", dim),
        ]
        times = self.times
        if columns.time and times is not None:
            when = time_cell(times, row.index, self.time_mode, columns.time)
            segments.append(Segment(fit(when, columns.time, align_right=True) + " ", dim))
        segments.append(Segment(fit(kind, columns.type) + " ", base))
        if columns.agent:
            segments.append(Segment(fit(row.agent, columns.agent) + " ", base))
        if columns.status:
            segments.append(Segment(fit(status, STATUS_WIDTH) + " ", status_style))
        segments.append(Segment(fit(summary, max(1, width - columns.fixed)), base))
        if columns.waterfall and times is not None:
            segments.extend(self._waterfall_segments(row.index, columns.waterfall, dim, cursor))
        return Strip(segments).adjust_cell_length(width, base)

    def _columns(self, width: int) -> RowColumns:
        times = self.times
        # No column of dashes: only when some event has a time of its own.
        clock = time_width(self.time_mode) if times is not None and times.events_timed else 0
        bars = times is not None and times.attempt_times_known
        if self._sparse_times and width < WIDE_PANE:
            # A waterfall beside mostly empty rows (past a broken log chain): a pane that
            # is not wide gives its cells to the summaries (the agents' names) instead.
            bars = False
        return row_columns(width, self._seq_width, clock, bars, self._agent_width)

    def _waterfall_segments(
        self, index: int, width: int, dim: Style, cursor: Style | None
    ) -> list[Segment]:
        times = self.times
        assert times is not None
        if self._waterfall is None or self._waterfall.width != width:
            self._waterfall = times.waterfall(width, self.now)
        if self._waterfall is None:
            return []
        text, status = waterfall_cells(self._waterfall, times, index, self._attempt_of_row)
        style = dim
        if status is not None and not (status == "ok" and self.claimed):
            style = self.rich_style + self._style(
                {"ok": "event-lines--ok", "in_flight": "event-lines--in-flight"}.get(
                    status, "event-lines--error" if status == "error" else "event-lines--dim"
                )
            )
            style = style + cursor if cursor is not None else style
        return [Segment(" ", dim), Segment(text, style)]


# Over an untrusted execution's timeline, the longest that fits in the pane's width; of
# the record, or of the write-ahead log when there is no record.
CLAIMS_BANNERS = (
    "⚠ untrusted: what follows is what the {} claims",
    "⚠ untrusted: what follows is only claimed",
    "⚠ untrusted: below is only claimed",
    "⚠ only claimed",
)


class ClaimsBanner(Widget):
    """One row at the top of an untrusted execution's timeline: its chain, its events and
    their ✓ are what the record claims (they read as successes under "believe nothing")."""

    DEFAULT_CSS = """
    ClaimsBanner { height: 1; padding: 0 1; color: $text-warning; text-style: bold; }
    """

    of_log = False  # the timeline is a write-ahead log's (no record file)

    def render(self) -> Content:
        width = self.size.width
        texts = (t.format("log" if self.of_log else "record") for t in CLAIMS_BANNERS)
        return Content(next((t for t in texts if cell_len(t) <= width), "⚠"))


def show_summary(widget: ClampedText, text: SummaryText) -> None:
    """``text`` in the summary ``widget``: every part of it the widget fits to its rows."""
    widget.show(
        text.lines,
        text.hangs,
        text.short,
        text.keep,
        text.first,
        shorter=text.shorter,
        yielding=text.yielding,
        folded=text.folded,
        abbreviate=text.abbreviate,
    )


class TimelineView(Vertical):
    """Summary of the selected execution above its event lines. While an attempt shown is
    in flight (its start time known), a 1 Hz tick updates how long it has been open."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ticker: Timer | None = None
        self._shown: tuple[ExecutionDetail, Verdict | None] | None = None

    @staticmethod
    def clock() -> datetime:
        """Now, for how long an attempt has been open (a test fixes it)."""
        return datetime.now(UTC)

    def compose(self) -> ComposeResult:
        self._claims = ClaimsBanner(id="timeline-claims")
        self._claims.display = False
        self._summary = ClampedText("", id="timeline-summary")
        self._lines = EventLines(id="event-lines")
        yield self._claims
        yield self._summary
        yield self._lines

    @property
    def lines(self) -> EventLines:
        return self._lines

    def show_message(self, message: Content | str) -> None:
        """No timeline to show (nothing selected, still loading, or no record file)."""
        content = message if isinstance(message, Content) else Content(message)
        self._claims.display = False
        self._summary.rows_below = 0
        self._summary.update(content)
        self._tick_while(None)
        self.lines.set_rows(())

    def _show_summary(self, text: SummaryText, events: int | None = None) -> None:
        """``events``: how many rows the event lines would fill (None: the same events as
        before, a tick of the clock)."""
        summary = self._summary
        if events is not None:
            summary.rows_above = 1 if self._claims.display else 0
            summary.rows_below = events
        show_summary(summary, text)

    def _tick_while(self, detail: ExecutionDetail | None, verdict: Verdict | None = None) -> None:
        """Tick once a second while ``detail`` has an attempt open; stop otherwise."""
        times = detail.times if detail is not None else None
        open_now = detail is not None and times is not None and bool(times.open_attempts)
        self._shown = (detail, verdict) if open_now and detail is not None else None
        if open_now and self._ticker is None:
            self._ticker = self.set_interval(1.0, self._tick, name="in-flight clock")
        elif not open_now and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def _tick(self) -> None:
        if self._shown is None:
            return
        detail, verdict = self._shown
        now = self.clock()
        self.lines.set_now(now)
        if detail.timeline is None and detail.wal is not None:
            self._show_summary(wal_summary_content(detail.wal, verdict, detail.times, now))
        else:
            self._show_summary(summary_content(detail, verdict, now))

    def show_detail(
        self, detail: ExecutionDetail, *, keep_cursor: bool = False, verdict: Verdict | None = None
    ) -> None:
        """Show ``detail`` under its ``verdict`` (the list row's, with its reasons)."""
        now = self.clock()
        self.lines.now = now
        self._tick_while(detail, verdict)
        claimed = claims_only(verdict)
        self._claims.display = claimed
        self._claims.of_log = detail.timeline is None
        self._claims.refresh()
        if detail.timeline is None and detail.wal is not None and detail.wal.entries:
            self._show_wal(detail, detail.wal, keep_cursor, verdict, now, claimed)
            return
        timeline = detail.timeline
        trailer = _trailer(detail)
        events = len(trailer) + (len(timeline.rows) if timeline is not None else 0)
        self._show_summary(summary_content(detail, verdict, now), events)
        if timeline is None:
            self.lines.set_rows((), trailer, 0)
            return
        cursor = self.lines.cursor if keep_cursor else _post_mortem_row(timeline)
        jumps = (timeline.fallback_indexes, timeline.error_indexes)
        self.lines.set_rows(
            timeline.rows,
            trailer,
            cursor,
            jumps,
            attempts=timeline.attempt_indexes,
            no_fallback_note=None if timeline.fallback_indexes else timeline.shape_note(),
            times=detail.times,
            attempt_of_row=_attempt_rows((a.event_index, a.end_index) for a in timeline.attempts),
            claimed=claimed,
            agents=[a.agent for a in timeline.attempts],
        )

    def _show_wal(
        self,
        detail: ExecutionDetail,
        log: WalLog,
        keep_cursor: bool,
        verdict: Verdict | None,
        now: datetime,
        claimed: bool,
    ) -> None:
        """No record file: the write-ahead log's entries are the timeline."""
        from intentus_tui.tui.presenters.wal_rows import wal_rows

        rows = wal_rows(log)
        trailer: tuple[tuple[str, str], ...] = ()
        if log.state == "in_flight":
            trailer = (("━━ the log ends here: never finished ━━", "event-lines--break"),)
        self._show_summary(
            wal_summary_content(log, verdict, detail.times, now), len(rows) + len(trailer)
        )
        cursor = self.lines.cursor if keep_cursor else _first_interesting(rows)
        steps = [row.index for row in rows if row.type == "step.started"]  # a WAL's attempts
        row_of_seq = {row.seq: row.index for row in rows if row.seq is not None}
        step_rows = _attempt_rows(
            (
                row_of_seq.get(s.started_seq) if s.started_seq is not None else None,
                row_of_seq.get(s.ended_seq) if s.ended_seq is not None else None,
            )
            for s in log.steps
        )
        self.lines.set_rows(
            rows,
            trailer,
            cursor,
            attempts=steps,
            times=detail.times,
            attempt_of_row=step_rows,
            claimed=claimed,
        )


def _attempt_rows(spans: Iterable[tuple[int | None, int | None]]) -> dict[int, int]:
    """Row -> the attempt (its position) that begins there: its bar is drawn on its start
    row (its end row, when no start was recorded), one bar per attempt."""
    rows: dict[int, int] = {}
    for position, (start, end) in enumerate(spans):
        row = start if start is not None else end
        if row is not None:
            rows.setdefault(row, position)
    return rows


def _trailer(detail: ExecutionDetail) -> tuple[tuple[str, str], ...]:
    """Lines after the last event: where a damaged file breaks, or that it never finished."""
    timeline, damage = detail.timeline, detail.result.damage
    if timeline is None:
        # After the mark column, as the rows' text is: not against the pane's border.
        return ((" no events could be read from this file", "event-lines--break"),)
    if damage is not None:
        where = f"byte {damage.offset}, line {damage.line}"  # as the Verify tab says it
        return ((f"━━ the file breaks here ({where}) ━━", "event-lines--break"),)
    if timeline.state is ExecutionState.INCOMPLETE:
        going = next((a for a in timeline.in_flight if a.log_start_seq is not None), None)
        if going is not None:  # the record lags its log: what runs now is the log's
            said = f"{going.agent} in flight, as its log says"
            return ((f"━━ {said} ━━", "event-lines--break"),)
        return (("━━ no final response: never finished ━━", "event-lines--break"),)
    return ()


def _post_mortem_row(timeline: Timeline) -> int:
    """Where a post-mortem starts: the start of the first attempt in flight that the record
    holds, else the first event. By the attempt's own event: not by finding its seq among
    the rows, which built every row of a long record before the first was drawn."""
    starts = (a.event_index for a in timeline.in_flight if a.start_seq is not None)
    return next((index for index in starts if index is not None), 0)


def _first_interesting(rows: Sequence[EventRow]) -> int:
    """Where a post-mortem starts: the attempt in flight, else the first event."""
    for row in rows:
        if row.in_flight:
            return row.index
    return 0
