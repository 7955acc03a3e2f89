"""The execution list: a Line-API ``ScrollView`` that renders only the rows on screen.

100,000 executions cost one sorted list of row keys (see ``ListModel``) and nothing per
row until a row scrolls into view; rendered rows are cached by file key and dropped when
their summary, the width, the cursor or the theme changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer

from intentus_tui.core.actions import verdict_of
from intentus_tui.core.model import ExecutionSummary, LoadStatus, Verdict
from intentus_tui.render.cells import fit
from intentus_tui.tui.presenters.list_groups import Group
from intentus_tui.tui.presenters.list_model import (
    FAILURES_FIRST,
    VIEWS,
    ListModel,
)
from intentus_tui.tui.presenters.list_order import (
    SORTS,
    Sort,
    SortJob,
    SortResult,
)
from intentus_tui.tui.presenters.list_rows import (
    LIST_TITLE,
    MAX_ID_WIDTH,
    MIN_ID_WIDTH,
    copies_width,
    group_header_text,
    id_width_for,
    list_subtitle,
    list_title,
    root_width_for,
    row_cells,
    view_note,
)
from intentus_tui.tui.presenters.message_wrap import wrap_message
from intentus_tui.tui.presenters.timeline_keys import TIMELINE_ONLY, timeline_key_elsewhere
from intentus_tui.tui.presenters.verdict_cells import being_written
from intentus_tui.tui.widgets.strip_cache import StripCachedView
from intentus_tui.tui.widgets.timeline_view import EventLines

# A damaged file that changed this recently, seen live, is taken for one being written.
WRITING_SECONDS = 3.0
_HALF_WRITTEN = frozenset({"salvaged", "empty", "not_json"})
# More executions than this are re-sorted in a thread worker (100,000: 65-100 ms of CPU,
# more than a key may take): the key is answered at once ("sorting…" in the list's
# subtitle, the rows as they were) and the new order takes their place when ready. Fewer
# are sorted at once, within a frame.
SORT_IN_WORKER_AT = 20_000
# The filter's rows found by an agent alone (the title's count) are counted as the rows
# are filtered up to this many shown; more, once no key came for a moment.
COUNT_AT_ONCE = 5_000
COUNT_AFTER_SECONDS = 0.3


def looks_half_written(summary: ExecutionSummary) -> bool:
    """Damaged the way a file caught mid-write is (1.3.0 writes in place, no temp file)."""
    return summary.source != "wal" and summary.load_status.value in _HALF_WRITTEN


class ExecutionList(
    StripCachedView[str, tuple[ExecutionSummary, int, bool, Strip]], can_focus=True
):
    """Every execution in the opened directory, one row each, grouped and sorted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page-up"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
        # The app's action, run as the key arrives (priority): its focus moves before the
        # keys typed after it in one burst are handed on (``enter j j`` steps the timeline).
        Binding(
            "enter,right,l", "app.open_timeline", "Open timeline", id="list.open", priority=True
        ),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "execution-list--cursor",
        "execution-list--header",
        "execution-list--id",
        "execution-list--file",
        "execution-list--dim",
        "execution-list--message",
        "execution-list--succeeded",
        "execution-list--failed",
        "execution-list--in-flight",
        "execution-list--unknown",
        "execution-list--untrusted",
        "execution-list--verified",
        "execution-list--benign",
        "execution-list--tampered",
        "execution-list--unverifiable",
        "execution-list--replayable",
        "execution-list--not-replayable",
    }

    class Highlighted(Message):
        """The cursor is on a different execution (or on none), or the file of the one it
        is on changed. (A message comes later than the cursor's move: ``on_select`` is
        told at once.)"""

        def __init__(self, summary: ExecutionSummary | None) -> None:
            super().__init__()
            self.summary = summary

    class RowsDrawn(Message):
        """Execution rows were drawn for the first time (posted once, from rendering)."""

    class FollowChanged(Message):
        """Follow mode went on or off (off: the user moved the cursor by hand)."""

        def __init__(self, following: bool) -> None:
            super().__init__()
            self.following = following

    class Sorted(Message):
        """A sort done in a thread worker is in place (``sorting`` is None again)."""

        def __init__(self, label: str) -> None:
            super().__init__()
            self.label = label

    class Filtered(Message):
        """A query typed while the searched texts were being made now filters the rows."""

    class WritingSettled(Message):
        """A record said "… writing" has been still a while: it is what it is (damaged),
        and counted so."""

    def __init__(
        self,
        *,
        id: str | None = None,
        classes: str | None = None,
        on_select: Callable[[ExecutionSummary | None], None] | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        # Called as the cursor goes to another execution, before any frame is drawn: the
        # panes that show the execution left stop showing it now, not when the
        # ``Highlighted`` message is handled (between the two, frames showed the new row
        # selected beside the old row's timeline).
        self._on_select = on_select
        self.model = ListModel()
        self._title_timer: Timer | None = None  # to count what the filter found by agent
        self.cursor_row = 0
        self.selected_key: str | None = None
        self.empty_message = "No executions"
        self._id_width = MIN_ID_WIDTH  # grows to the longest id seen (up to MAX_ID_WIDTH)
        self._root_width = 0  # several roots: grows to the longest label (up to ROOT_WIDTH)
        self._copies_version = 0  # of ``model.shared_ids`` when the rows were last drawn
        self._names_width = 0  # what the file names of copies want of the id column
        self._writing: set[str] = set()  # keys of damaged files that just changed (live)
        self.model.writing = self._writing  # "/" finds what their rows say
        # Whether the user has moved the cursor (or a watched change came): until then a
        # selection that leaves the list goes to the top row, not to the same row number.
        self._user_moved = False
        self._rows_drawn = False
        # Follow mode (like ``tail -f``): each execution that arrives live is selected.
        # Off, the selection stays where the user put it while rows come and go.
        self.following = False
        # The sort a thread worker is making (shown as "sorting…"), and what tells its
        # result from that of a sort asked for before.
        self.sorting: Sort | None = None
        self._sort_token: object | None = None
        # The searched texts are being made by a thread worker (``prepare_filter``), and
        # the query typed meanwhile, to filter by once they are in.
        self._texts_coming = False
        self.waiting_query: str | None = None

    def on_resize(self, event: events.Resize) -> None:
        self.show_subtitle()  # a narrower border takes the short form
        # Fewer rows fit (a smaller terminal, another layout): the selected one stays in
        # sight, as the timeline beside it shows it.
        self.call_after_refresh(self._scroll_cursor_into_view)

    def show_subtitle(self) -> None:
        """How the list is shown and sorted, on its border (cut to fit its width); what
        the filter found by an agent alone, in its title."""
        width = self.outer_size.width
        self.border_subtitle = list_subtitle(
            self.model, self.sorting, self.waiting_query is not None, width
        )
        if self._title_timer is not None:
            self._title_timer.stop()
            self._title_timer = None
        if self.model.unshown_counted or self.model.shown_count <= COUNT_AT_ONCE:
            self.border_title = list_title(self.model, width)
        else:  # counted once the typing pauses: a pass over every row shown, not per key
            self.border_title = LIST_TITLE
            self._title_timer = self.set_timer(COUNT_AFTER_SECONDS, self._count_title)

    def _count_title(self) -> None:
        self._title_timer = None
        self.border_title = list_title(self.model, self.outer_size.width)

    # ------------------------------------------------------------------ public API

    @property
    def selected_summary(self) -> ExecutionSummary | None:
        return self.model.summaries.get(self.selected_key) if self.selected_key else None

    def replace_all(self, summaries: Iterable[ExecutionSummary]) -> None:
        summaries = list(summaries)
        self._widen_ids(summaries)
        self._keeping_place(lambda: self.model.replace_all(summaries))

    @property
    def id_width(self) -> int:
        """The id column's width: the longest short id seen, up to ``MAX_ID_WIDTH``."""
        return self._id_width

    def _widen_ids(self, summaries: list[ExecutionSummary]) -> None:
        roots = root_width_for(summaries, self._root_width)
        if roots != self._root_width:
            self._root_width = roots
            self._strips.clear()
        wanted = id_width_for(summaries, self._id_width)
        if wanted != self._id_width:
            self._id_width = wanted
            self._strips.clear()

    def apply_changes(
        self, changed: Iterable[ExecutionSummary], removed: Iterable[str], *, live: bool = False
    ) -> None:
        """Fold in summaries that changed and keys that disappeared, keeping the user's place.

        ``live``: the changes come from watching (not the initial scan), so a damaged file
        among them may be one caught mid-write.
        """
        changed = list(changed)
        removed = list(removed)
        self._widen_ids(changed)
        for key in removed:
            self._strips.discard(key)
        known = self.model.summaries
        for summary in changed:
            self._strips.discard(summary.key)
            if live:
                self._note_writing(summary, known.get(summary.key))
            else:
                self._writing.discard(summary.key)
        self._writing.difference_update(removed)
        if live and self.selected_key is not None:
            # Watched changes come after the scan: the row shown is the one being read (its
            # timeline may be open), so nothing listed above it takes its place; only
            # follow mode moves to what arrives.
            self._user_moved = True
        arrived = [s for s in changed if s.key not in known] if live and self.following else []
        self._keeping_place(lambda: self.model.apply(changed, removed), files_changed=True)
        newest = self.model.newest(arrived) if arrived else None
        if newest is not None and self._follow_to(newest):
            return
        selected = self.selected_summary
        if selected is not None and any(s.key == self.selected_key for s in changed):
            self.post_message(self.Highlighted(selected))  # its file changed: reload it

    def as_read(self, key: str, read: ExecutionSummary | None) -> ExecutionSummary | None:
        """The summary of ``key`` its loaded detail is shown under: ``read``, the detail's
        own (made from the same bytes as its timeline), so that the timeline's verdict
        never contradicts its chain. Where ``read`` is the newer of the two (a live file
        that changed since it was listed, or a huge file listed from its head and tail
        and now read whole) it is listed in its place too: its row redrawn, nothing
        reloaded. Where the listed one is newer, the row's change has asked for the
        detail again, and the two agree once it comes."""
        listed = self.model.summaries.get(key)
        if listed is None or read is None or read.load_status is LoadStatus.HEAD_ONLY:
            return listed
        read = replace(read, key=listed.key, root=listed.root)
        if read == listed:
            return listed
        if listed.load_status is LoadStatus.HEAD_ONLY or read.mtime_ns > listed.mtime_ns:
            self._strips.discard(key)
            self._keeping_place(lambda: self.model.apply([read], []))
        return read

    def is_writing(self, key: str) -> bool:
        return key in self._writing

    def writing_by_group(self, shown: bool = False) -> Counter[Group]:
        """The records said "… writing", by the group their codes put them in (``shown``:
        of the rows shown only): what the counts line and the group headers say of them."""
        model = self.model
        counts: Counter[Group] = Counter()
        for key in self._writing:
            summary = model.summaries.get(key)
            if summary is not None and (not shown or model.row_of(key) is not None):
                counts[model.group(summary)] += 1
        return counts

    def verdict_shown(self, key: str, summary: ExecutionSummary | None) -> Verdict | None:
        """``summary``'s verdict as the panes give it: that of a record caught mid-write
        (its row's "… writing") as being written (``being_written``), not as damaged."""
        if summary is None:
            return None
        verdict = verdict_of(summary)
        return being_written(verdict) if key in self._writing else verdict

    def _note_writing(self, summary: ExecutionSummary, listed: ExecutionSummary | None) -> None:
        """A live change left the file damaged: show it as being written until it parses,
        or until it has been still for ``WRITING_SECONDS`` (then it is what it is). A file
        read again unchanged (its log gone: ``listed`` has its size and time) is what it
        was: a damaged one is not being written."""
        unchanged = listed is not None and (listed.size, listed.mtime_ns) == (
            summary.size,
            summary.mtime_ns,
        )
        if unchanged and summary.key not in self._writing:
            return
        if not looks_half_written(summary):
            self._writing.discard(summary.key)
            return
        self._writing.add(summary.key)
        self.set_timer(WRITING_SECONDS, lambda: self._settled(summary))

    def _settled(self, summary: ExecutionSummary) -> None:
        if self.model.summaries.get(summary.key) is summary:  # unchanged since: it is damaged
            self._writing.discard(summary.key)
            self._strips.discard(summary.key)
            # its row no longer says "… writing": searched again (a filter may drop it)
            self._keeping_place(lambda: self.model.apply([summary], []))
            self.refresh()
            self.post_message(self.WritingSettled())  # the header counts it as it is now
            if summary.key == self.selected_key:  # shown as being written: now as damaged
                self.post_message(self.Highlighted(summary))

    def cycle_view(self) -> str:
        """The next view; what to say of it (``view_note``: its label, its rows)."""
        index = (VIEWS.index(self.model.view) + 1) % len(VIEWS)
        self._keeping_place(lambda: self.model.set_view(VIEWS[index]))
        return view_note(self.model)

    def show_failures_first(self) -> str:
        """The failures-first view (grouped by verdict, what needs attention on top), with
        the cursor on its first row; what to say of it (``view_note``)."""
        self._keeping_place(lambda: self.model.set_view(FAILURES_FIRST))
        first = self.model.nearest_item(0)
        if first is not None:
            self._move_to(first)
        return view_note(self.model)

    def cycle_sort(self) -> str:
        """The next sort (after the one being made, if any), in place now on a small list;
        on a big one (``SORT_IN_WORKER_AT``) made by a thread worker, ``sorting`` until
        the ``Sorted`` message. Its label."""
        current = self.sorting or self.model.sort
        sort = SORTS[(SORTS.index(current) + 1) % len(SORTS)]
        if len(self.model.summaries) < SORT_IN_WORKER_AT:
            self.sorting = self._sort_token = None  # a worker's older sort is then dropped
            self._keeping_place(lambda: self.model.set_sort(sort))
        else:
            self._sort_elsewhere(sort, retried=False)
        return sort.label

    def _sort_elsewhere(self, sort: Sort, *, retried: bool) -> None:
        self.sorting = sort
        token = self._sort_token = object()

        def run(job: SortJob) -> None:
            result: SortResult | None
            try:
                result = job.run()
            except Exception:  # never seen; then sorted on the app's thread, not left "sorting…"
                result = None
            self.app.call_from_thread(self._sort_made, token, job, result, retried)

        def start() -> None:
            if token is self._sort_token:
                job = self.model.sort_job(sort)
                # Described in words: by default a worker's description is its arguments'
                # repr (here, every execution).
                self.run_worker(
                    lambda: run(job),
                    f"sort: {sort.label}",
                    group="sort",
                    thread=True,
                    exit_on_error=False,
                )

        # Once the "sorting…" frame is out: a thread holding the interpreter half the time
        # would slow that frame, the key's answer.
        self.call_after_refresh(start)

    def _sort_made(
        self, token: object, job: SortJob, result: SortResult | None, retried: bool
    ) -> None:
        if token is not self._sort_token:  # another sort was asked for since
            return
        stale = self.model.is_stale(job)  # executions came or went, or the grouping changed
        if result is not None and not stale:
            made = result
            self._keeping_place(lambda: self.model.finish_sort(job, made))
        elif result is not None and not retried:
            self._sort_elsewhere(job.sort, retried=True)
            return
        else:
            # The worker failed, or the executions changed again before a second sort was
            # made: sorted here, once, rather than never.
            self._keeping_place(lambda: self.model.set_sort(job.sort))
        self.sorting = self._sort_token = None
        self.post_message(self.Sorted(job.sort.label))

    def prepare_filter(self) -> None:
        """Make every execution's searched text in a thread worker, now (as the filter box
        opens) rather than on the first filter keystroke: at 100,000 executions ~0.3 s,
        during which that keystroke's rows, and every key after it, waited. A query typed
        before they are made waits for them (``waiting_query``, "filtering…"): its letters
        show at once, its rows once the texts are in (``Filtered``)."""
        model = self.model
        if model.unsearched_count() < SORT_IN_WORKER_AT or self._texts_coming:
            return  # few: made when first searched, at once
        self._texts_coming = True
        yield_to_keys = getattr(self.app, "yield_to_keys", None)

        def pause() -> None:
            # Once a typed query waits for these texts, they are what the user waits for.
            if yield_to_keys is not None and self.waiting_query is None:
                yield_to_keys()

        # A copy (one call, a millisecond at 100,000) for the worker to look through: the
        # app changes the executions' dictionary as they arrive.
        everyone = list(model.summaries.values())

        def make() -> None:
            missing: list[ExecutionSummary] = []
            texts: list[bytes] | None
            try:
                missing = model.missing_haystacks(everyone)
                texts = model.make_haystacks(missing, pause)
            except Exception:  # never seen; then made on the app's thread, when searched
                texts = None
            self.app.call_from_thread(self._texts_made, missing, texts)

        def start() -> None:
            self.run_worker(
                make, "searched texts", group="haystacks", thread=True, exit_on_error=False
            )

        # Once the filter box is drawn: a worker holding the interpreter would slow that
        # frame, the key's answer.
        self.call_after_refresh(start)

    def _texts_made(self, made: list[ExecutionSummary], texts: list[bytes] | None) -> None:
        if texts is not None:
            self.model.adopt_haystacks(made, texts)
        self._texts_coming = False
        query, self.waiting_query = self.waiting_query, None
        if query is not None:
            self.set_query(query)
            self.post_message(self.Filtered())

    def set_query(self, query: str) -> None:
        """Filter the rows by ``query``; while the searched texts are being made, only
        note it (``waiting_query``) and filter once they are in."""
        if self._texts_coming and query.strip():
            self.waiting_query = query
            return
        self.waiting_query = None
        self._keeping_place(lambda: self.model.set_query(query))

    def select_key(self, key: str) -> bool:
        """Put the cursor on ``key``; false if that execution is not shown."""
        row = self.model.row_of(key)
        if row is None:
            return False
        self._move_to(row)
        return True

    def set_following(self, following: bool) -> None:
        """Follow mode on (the cursor goes to the newest execution now and to each one that
        arrives live) or off."""
        if following == self.following:
            return
        self.following = following
        newest = self.model.newest() if following else None
        if newest is not None:
            self._follow_to(newest)
        self.post_message(self.FollowChanged(following))

    def _follow_to(self, summary: ExecutionSummary) -> bool:
        row = self.model.row_of(summary.key)
        if row is None:  # filtered out of the view: the cursor stays where it is
            return False
        self._move_to(row, by_user=False)
        return True

    # ------------------------------------------------------------------ keeping place

    def _keeping_place(self, change, *, files_changed: bool = False) -> None:
        """Run a model change, then restore the selection and where it sat on screen.
        ``files_changed``: files came and went (not a view, sort or filter)."""
        scroll_y = round(self.scroll_y)
        old_cursor = self.cursor_row
        height = max(1, self.scrollable_content_region.height)
        cursor_on_screen = scroll_y <= old_cursor < scroll_y + height
        anchor_key = self.selected_key if cursor_on_screen else self.model.key_at(scroll_y)
        anchor_offset = (old_cursor - scroll_y) if cursor_on_screen else 0
        was = self.selected_summary
        change()
        model = self.model
        self._note_copies()
        self._update_virtual_size()
        # The execution selected stays selected, from the first row shown on: rows the
        # scan lists above it (a big directory's first rows are not its newest) push it
        # down rather than take its place, its timeline with it.
        row = model.row_of(self.selected_key) if self.selected_key else None
        if row is None and was is not None and files_changed:
            # Its file went while the execution is still listed from another (its record
            # gone, its log alone left; or back): the execution stays selected.
            row = self._row_of_execution(was)
        if row is None:  # the selection left the list: the same row number (or the top)
            row = model.nearest_item(min(old_cursor, len(model) - 1) if self._user_moved else 0)
        self.cursor_row = row if row is not None else 0
        if scroll_y == 0 and self.cursor_row < height:
            new_scroll = 0  # at the top: stay there, new rows show up
        else:
            anchor_row = model.row_of(anchor_key) if anchor_key else None
            new_scroll = (anchor_row - anchor_offset) if anchor_row is not None else scroll_y
        self._scroll_y_to(max(0, new_scroll))
        self._scroll_cursor_into_view()
        self.refresh()
        self._announce_selection()

    def _row_of_execution(self, summary: ExecutionSummary) -> int | None:
        """The row of another file of ``summary``'s execution (same root, same id), if one
        is shown: a pass over the executions, made only when a selected file goes."""
        model = self.model
        for other in model.summaries.values():
            if other.execution_id == summary.execution_id and other.root == summary.root:
                row = model.row_of(other.key)
                if row is not None:
                    return row
        return None

    def _note_copies(self) -> None:
        """When an execution id comes to be (or stops being) in more than one file, the
        rows that name their file instead of the id are drawn again, and the id column
        widens to the names (like the ids, it only grows while there are copies: once as
        wide as it gets, no pass over the executions is made again)."""
        shared = self.model.shared_ids
        if shared.version == self._copies_version:
            return
        self._copies_version = shared.version
        if not shared:
            self._names_width = 0
        elif self._names_width < MAX_ID_WIDTH:
            self._names_width = max(self._names_width, copies_width(self.model.copies()))
        self._strips.clear()

    def _announce_selection(self) -> None:
        key = self.model.key_at(self.cursor_row)
        if key != self.selected_key:
            self.selected_key = key
            if self._on_select is not None:
                self._on_select(self.selected_summary)
            self.post_message(self.Highlighted(self.selected_summary))

    # ------------------------------------------------------------------ cursor

    def _move_to(self, row: int, step: int = 1, *, by_user: bool = True) -> None:
        if not len(self.model):
            return
        self._user_moved = True
        if by_user and self.following:  # taking the cursor back ends follow mode
            self.following = False
            self.post_message(self.FollowChanged(False))
        target = self.model.nearest_item(row, step)
        if target is None:
            return
        if target != self.cursor_row:
            self.refresh_line(self.cursor_row)
            self.cursor_row = target
            self.refresh_line(target)
        self._scroll_cursor_into_view()
        self._announce_selection()

    def _scroll_cursor_into_view(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_y)
        row = self.cursor_row
        # Keep a group header visible above the first row of its group.
        want_top = row - 1 if row > 0 and self.model.is_header(row - 1) else row
        if want_top < top:
            self._scroll_y_to(want_top)
        elif row >= top + height:
            self._scroll_y_to(row - height + 1)

    def _scroll_y_to(self, y: int) -> None:
        # Forced once laid out: rows that overflow the list only now get their scrollbar
        # at the next layout, and until then Textual refuses to scroll (the selection
        # pushed down by a batch of rows above it was left out of sight). Not before the
        # first layout: with no height yet, any row would seem below the list.
        laid_out = self.scrollable_content_region.height > 0
        self.scroll_to(y=y, animate=False, immediate=True, force=laid_out)

    def action_cursor_down(self) -> None:
        self._move_to(self.cursor_row + 1, 1)

    def action_cursor_up(self) -> None:
        self._move_to(self.cursor_row - 1, -1)

    def action_page_down(self) -> None:
        self._move_to(self.cursor_row + max(1, self.scrollable_content_region.height - 1), 1)

    def action_page_up(self) -> None:
        self._move_to(self.cursor_row - max(1, self.scrollable_content_region.height - 1), -1)

    def action_first(self) -> None:
        self._move_to(0, 1)

    def action_last(self) -> None:
        self._move_to(len(self.model) - 1, -1)

    def on_key(self, event: events.Key) -> None:
        """A timeline key (``t``, ``a``, ``e``...) pressed here says where it works: a key
        that does nothing silently looks broken."""
        binding = self._timeline_binding(event.key)
        if binding is None:
            return
        event.stop()
        keymap: dict[str, str] = getattr(self.app, "keymap", {})
        open_key = keymap.get("list.open", "enter").split(",")[0].strip()
        key = self.app.get_key_display(Binding(event.key, ""))
        note = timeline_key_elsewhere(key, binding.description, open_key)
        self.notify(note, severity="warning", markup=False, timeout=4)

    def _timeline_binding(self, key: str) -> Binding | None:
        """The timeline's binding of ``key`` (as the keymap has it), if nothing here has
        one: a key bound on the list or the app keeps its own answer."""
        if any(key in bindings.key_to_bindings for _, bindings in self.screen._modal_binding_chain):
            return None
        keymap: dict[str, str] = getattr(self.app, "keymap", {})
        for binding in EventLines.BINDINGS:
            if isinstance(binding, Binding) and binding.id in TIMELINE_ONLY:
                keys = keymap.get(binding.id, binding.key)
                if key in (part.strip() for part in keys.split(",")):
                    return binding
        return None

    async def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = round(self.scroll_y) + offset.y
        if self.model.key_at(row) is not None:
            self._move_to(row)
            if event.chain >= 2:
                await self.run_action("app.open_timeline")

    # ------------------------------------------------------------------ rendering

    def _virtual_height(self) -> int:
        return len(self.model)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = round(self.scroll_y) + y
        model = self.model
        if not len(model):
            return self._render_empty(y, width)
        if row >= len(model):
            return Strip.blank(width, self.rich_style)
        if model.is_header(row):
            return self._render_header(row, width)
        key = model.key_at(row)
        assert key is not None
        if not self._rows_drawn:
            self._rows_drawn = True
            self.post_message(self.RowsDrawn())  # handled once this frame is out
        summary = model.summaries[key]
        is_cursor = row == self.cursor_row
        cached = self._strips.get(key)
        if cached is not None and cached[0] is summary and cached[1:3] == (width, is_cursor):
            return cached[3]
        strip = self._render_row(summary, width, is_cursor)
        self._strips[key] = (summary, width, is_cursor, strip)
        return strip

    def _render_empty(self, y: int, width: int) -> Strip:
        lines = wrap_message(self.empty_message, max(8, width - 2))
        if 1 <= y <= len(lines):
            style = self._style("execution-list--message")
            return Strip([Segment(fit(" " + lines[y - 1], width), style)], width)
        return Strip.blank(width, self.rich_style)

    def _render_header(self, row: int, width: int) -> Strip:
        group, size = self.model.header_of(row)
        writing = self.writing_by_group(shown=True)[group] if self._writing else 0
        text = group_header_text(group, size, width, writing)
        return Strip([Segment(text, self._style("execution-list--header"))], width)

    def _render_row(self, summary: ExecutionSummary, width: int, is_cursor: bool) -> Strip:
        base = self.rich_style
        cursor = self._style("execution-list--cursor") if is_cursor else None

        def style(name: str | None) -> Style:
            combined = base + self._style(name) if name else base
            return combined + cursor if cursor is not None else combined

        writing = summary.key in self._writing
        copy = summary in self.model.shared_ids
        cells = row_cells(
            summary,
            width,
            self._id_width,
            writing=writing,
            copy=copy,
            names_width=self._names_width,
            root_width=self._root_width,
        )
        segments = [Segment(text, style(name)) for text, name in cells]
        return Strip(segments).adjust_cell_length(width, style(None))
