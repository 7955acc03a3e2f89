"""The selected event as highlighted JSON, through a bounded preview (see ``json_preview``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:  # not imported at start: the first frame should not wait for them
    from intentus_tui.core.actions import ExecutionDetail


def _when(detail: ExecutionDetail, index: int) -> str:
    """``at 2026-01-05T09:09:08.024Z · +0.738s · from the WAL``, or that no time was
    recorded for it."""
    from intentus_tui.core.actions import clock_text, offset_text
    from intentus_tui.tui.presenters.time_cells import SOURCE_NAMES

    times = detail.times
    known = times.event_time(index) if times is not None else None
    if times is None or known is None:
        return "at —  no time recorded for this event"
    source = SOURCE_NAMES.get(known.source, known.source)
    return f"at {clock_text(known.at)} · {offset_text(times.offset(index))} · {source}"


class EventDetail(VerticalScroll):
    """One event's JSON; huge strings, arrays and objects are cut with their size shown."""

    def compose(self) -> ComposeResult:
        self._title = Static("", id="event-detail-title")
        self._body = Static("", id="event-detail-body")
        yield self._title
        yield self._body

    def show_message(self, message: str) -> None:
        self._show(Content.styled(message, "$text-muted"), Content(""))

    def show_event(self, detail: ExecutionDetail, index: int | None) -> None:
        record = detail.result.record
        if record is None and detail.wal is not None and index is not None:
            entries = detail.wal.entries
            if 0 <= index < len(entries):
                from intentus_tui.tui.presenters.wal_rows import wal_entry_json

                entry = wal_entry_json(entries[index])
                self._show_value(entry, index, len(entries), "WAL entry", _when(detail, index))
                return
        if record is None or index is None or not 0 <= index < len(record.events):
            self._show_file_problem(detail)
            return
        when = _when(detail, index)
        event = record.events[index]
        # Rows are labelled by seq: where events are missing (a gap) the place differs.
        seq = event.seq if event.seq is not None and event.seq != index + 1 else None
        self._show_value(event.raw, index, len(record.events), "event", when, seq)

    def _show_value(
        self,
        value: object,
        index: int,
        count: int,
        what: str,
        when: str = "",
        seq: int | None = None,
    ) -> None:
        from intentus_tui.tui.presenters.json_preview import approximate_size, human_size, preview

        size = approximate_size(value)
        shown = preview(value)
        title: list[str | tuple[str, str]] = [
            (f"{what} {index + 1:,} of {count:,}", "bold"),
            (f" (seq {seq:,})" if seq is not None else "", "bold"),
            (f"  ·  {human_size(size)}", "$text-muted"),
        ]
        if shown.truncated:
            title.append(("  ·  large: a shortened view (cuts marked ⟪…⟫)", "bold $warning"))
        if when:
            title.append((f"\n{when}", "$text-muted"))
        # Imported here: pygments (behind it) costs start-up time before any event is shown.
        from textual.highlight import highlight

        self._show(Content.assemble(*title), highlight(shown.text, language="json"))

    def _show_file_problem(self, detail: ExecutionDetail) -> None:
        from intentus_tui.tui.presenters.json_preview import human_size

        result = detail.result
        lines = [sanitize_line(result.message)]
        if result.damage is not None and result.damage.describe() not in result.message:
            lines.append(result.damage.describe())
        lines.append(f"{human_size(result.size)} on disk")
        body = Content("\n").join(Content(line) for line in lines)
        self._show(Content.styled("no event to show", "bold"), body)

    def _show(self, title: Content, body: Content) -> None:
        self._title.update(title)
        self._body.update(body)
        self.scroll_home(animate=False)
