"""Keys that act on the selected execution act on the one under the cursor.

Moving the cursor loads the execution under it in a thread (a big record takes a while);
until it is here, the app still holds the one the cursor left. A key pressed meanwhile
(diff, replay, invalidate, snapshot, a side tab, compare with…) waits for the new one and
then acts on it: it never acts on the execution just left, and is not lost. If the
cursor moves on before the load ends, the key is dropped: it was for a row the operator
left. ``m`` is the exception: it marks the row it was pressed on, which is loaded on its
own, so that ``m``, ``j``, ``d`` typed fast compare the two rows the operator meant.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail
    from intentus_tui.core.model import ExecutionSummary
    from intentus_tui.core.paths import RecordRoot
    from intentus_tui.tui.widgets.execution_list import ExecutionList


class SelectionActions:
    """For ``IntentusApp``, which provides ``detail``/``detail_key`` (the last execution
    loaded), ``marked`` (A of the next diff), the list and the files behind its rows."""

    detail: ExecutionDetail | None
    detail_key: str | None
    marked: ExecutionDetail | None
    # The execution the timeline, event and side panes show: None while none is shown (none
    # selected, or the one under the cursor still loading). Never another than the cursor's.
    shown_key: str | None = None
    _waiting_action: tuple[str, str] | None = None  # (row, action) until the row loads
    _marking: str | None = None  # a row marked before it loaded

    if TYPE_CHECKING:

        @property
        def execution_list(self) -> ExecutionList: ...

        def file_of(self, summary: ExecutionSummary) -> Path: ...

        def root_of(self, path: Path) -> RecordRoot: ...

        def readable_file(self, path: Path) -> Path: ...

        def set_marked(self, detail: ExecutionDetail) -> None: ...

    def read_detail(self, path: Path, *, record_removed: bool = False) -> ExecutionDetail:
        """The detail of the execution in ``path`` (in a worker thread: it reads the file);
        ``record_removed``: its listing says its record file was seen, then removed."""
        from intentus_tui.core.actions import load_detail

        wal_dir = self.root_of(path).wal_dir
        return load_detail(self.readable_file(path), wal_dir, record_removed=record_removed)

    def reloads_when_changed(self, key: str) -> bool:
        """Whether a change to the file of row ``key`` is read again as the execution shown
        (the selection's reload then compares again whatever shows it)."""
        return key == self.shown_key == self.execution_list.selected_key

    def selection_loading(self) -> bool:
        """An execution is under the cursor and its detail is not here yet."""
        key = self.execution_list.selected_key
        return key is not None and key != self.detail_key

    def act_when_loaded(self, action: str) -> bool:
        """True when the execution under the cursor is loaded (and any row marked before
        it loaded is too): act now. Otherwise ``action`` runs once they are, and False."""
        if not self.selection_loading() and self._marking is None:
            return True
        key = self.execution_list.selected_key
        if key is not None:
            self._waiting_action = (key, action)
        return False

    def record_to_act_on(self, action: str) -> ExecutionDetail | None:
        """The loaded execution under the cursor when it has a record; None when there is
        none, or while it loads (then ``action`` runs once it is here)."""
        if self.said_nothing_selected(action):
            return None
        if not self.act_when_loaded(action):
            return None
        detail = self.detail
        if detail is not None and detail.result.record is None:
            self._say_no_record(action, detail)
            return None
        return detail

    def said_nothing_selected(self, action: str) -> bool:
        """True, having said so, when the cursor is on no row (the filter or view lists
        none): the panes show none, and a key for it must say why it does nothing."""
        if self.execution_list.selected_key is not None:
            return False
        from intentus_tui.tui.presenters.execution_text import nothing_selected_to

        app: Any = self  # an App: notify is its
        app.notify(nothing_selected_to(action), severity="warning", markup=False, timeout=4)
        return True

    def _say_no_record(self, action: str, detail: ExecutionDetail) -> None:
        """A key acting on a record, pressed on an execution without one, says why it does
        nothing (it did nothing, saying nothing)."""
        from intentus_tui.tui.presenters.execution_text import no_record_to

        app: Any = self  # an App: notify is its
        app.notify(no_record_to(action, detail), severity="warning", markup=False, timeout=8)

    def action_force_replay(self) -> None:
        """``R``: replay the record even if it is not replayable, once confirmed. An
        execution without a record (known from its log alone, or a file that is not one)
        has nothing to replay, forced or not: a toast says so."""
        if self.said_nothing_selected("force_replay") or not self.act_when_loaded("force_replay"):
            return
        from intentus_tui.tui.presenters.execution_text import (
            force_replay_lines,
            forced_replay_not_made,
            not_while_written,
            nothing_to_replay,
        )
        from intentus_tui.tui.screens.confirm import ConfirmScreen

        app: Any = self  # an App: notify, push_screen and the side pane are its
        detail = self.detail
        if detail is None:
            return
        if detail.result.record is None:
            app.notify(nothing_to_replay(detail), severity="warning", markup=False, timeout=8)
            return
        name = app.long_name(detail)
        if self.execution_list.is_writing(self.execution_list.selected_key or ""):
            # its row says "… writing": half a file, no risk to weigh nor damage to name yet
            app.notify(not_while_written(name), severity="warning", markup=False, timeout=8)
            return
        key = self.detail_key  # the row the dialog asks about (``name`` for the toast after)

        async def confirmed(ok: bool | None) -> None:
            if not ok:
                return
            if self.detail is detail and self.shown_key == key:
                app.show_side_pane("replay")
                await app.side_pane.run_replay(True)
                return
            # What the dialog described (its risks, its "nothing to return") is no longer
            # what is shown: replaying now would answer a question not asked. It did
            # nothing, saying nothing. The cursor may have left it before the detail of
            # the row it went to is here (``shown_key`` is None meanwhile).
            shown = self.execution_list.selected_key == key
            note = forced_replay_not_made(name, shown)
            app.notify(note, severity="warning", markup=False, timeout=8)

        lines = force_replay_lines(detail, app.names_its_file(detail.path))
        app.push_screen(ConfirmScreen("Force a replay?", lines, "Force replay"), confirmed)

    def cursor_moved(self, summary: ExecutionSummary | None) -> None:
        """The list's cursor went to another execution (``summary``; None: to no row). Told
        at once by the list, before a frame is drawn: the panes stop showing the execution
        it left now, and say that this one is loading until its detail is here."""
        from textual.content import Content

        from intentus_tui.core.sanitize import sanitize_line
        from intentus_tui.tui.presenters.execution_text import clip

        app: Any = self  # an App: its panes
        self.shown_key = None
        label = clip(summary.execution_id) if summary is not None else None
        # With several roots, which one's copy the panes show (an id may be in each).
        root = sanitize_line(summary.root) if summary is not None and summary.root else ""
        app.timeline.border_title = Content(f"Timeline · {root}" if root else "Timeline")
        app.side_pane.root_label = root
        label = f"{root}:{label}" if root and label is not None else label
        if label is None:
            app.timeline.show_message("Select an execution to see its timeline.")
        else:
            app.timeline.show_message(
                Content.assemble(("loading ", "$text-muted"), (label, "bold"), "…")
            )
        app.event_detail.show_message("")
        app.side_pane.show_loading(label)

    def selection_moved(self) -> None:
        """The cursor moved: a key pressed for a row it has left is dropped. (The list's
        own cursor, not the message's row: keys typed fast are handled before the
        messages of the moves that came first.)"""
        waiting = self._waiting_action
        if waiting is not None and waiting[0] != self.execution_list.selected_key:
            self._waiting_action = None

    def selection_loaded(self) -> None:
        """A detail arrived: run the key pressed while it loaded, once everything it
        waits for is here and the cursor is still on its row."""
        waiting = self._waiting_action
        if waiting is None or self.selection_loading() or self._marking is not None:
            return
        self._waiting_action = None
        if waiting[0] == self.execution_list.selected_key:
            app: Any = self  # an App: run_action and call_later are Textual's
            app.call_later(app.run_action, waiting[1])

    def action_mark(self) -> None:
        """``m``: the execution under the cursor becomes A of the next diff."""
        if self.said_nothing_selected("mark"):
            return
        key = self.execution_list.selected_key
        summary = self.execution_list.model.summaries.get(key) if key is not None else None
        if key is None or summary is None:
            return
        if not self.selection_loading():
            if self.detail is not None and self.detail.result.record is None:
                self._say_no_record("mark", self.detail)
            elif self.detail is not None:
                self.set_marked(self.detail)
            return
        self._marking = key
        self._load_marked(key, self.file_of(summary))

    @work(thread=True, exclusive=True, group="mark", exit_on_error=False)
    def _load_marked(self, key: str, path: Path) -> None:
        detail = None
        try:
            detail = self.read_detail(path)
        finally:  # whatever happens, what waits for the mark is released
            if not get_current_worker().is_cancelled:
                app: Any = self
                app.call_from_thread(self._marked_loaded, key, detail)

    def _marked_loaded(self, key: str, detail: ExecutionDetail | None) -> None:
        if self._marking != key:
            return  # marked another row since
        self._marking = None
        if detail is not None:
            self.set_marked(detail)
        self.selection_loaded()
