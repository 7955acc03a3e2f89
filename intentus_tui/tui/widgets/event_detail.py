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

                self._show_value(wal_entry_json(entries[index]), index, len(entries), "WAL entry")
                return
        if record is None or index is None or not 0 <= index < len(record.events):
            self._show_file_problem(detail)
            return
        self._show_value(record.events[index].raw, index, len(record.events), "event")

    def _show_value(self, value: object, index: int, count: int, what: str) -> None:
        from intentus_tui.tui.presenters.json_preview import approximate_size, human_size, preview

        size = approximate_size(value)
        shown = preview(value)
        title: list[str | tuple[str, str]] = [
            (f"{what} {index + 1:,} of {count:,}", "bold"),
            (f"  ·  {human_size(size)}", "$text-muted"),
        ]
        if shown.truncated:
            title.append(("  ·  large: a shortened view (cuts marked ⟪…⟫)", "bold $warning"))
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
