"""The debugger app: execution list | timeline + event detail | side pane.

Data flows one way: files → ``IndexFeeder`` (thread workers) → ``IndexChanged`` messages →
``ExecutionList``; the selected row → ``load_detail`` (thread worker) → ``DetailLoaded`` →
timeline, event detail and side pane. Widgets never read files; the app owns the keys
that act on the selected execution and calls into the side pane.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.worker import get_current_worker

from intentus_tui.core.model import ExecutionSummary, LoadStatus
from intentus_tui.core.paths import RecordRoot, with_logs_to_come
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.commands import ExecutionCommands
from intentus_tui.tui.compare_picking import ComparePicking
from intentus_tui.tui.diffing import COMPARISON_KEYS, DiffKeys
from intentus_tui.tui.filtering import Filtering
from intentus_tui.tui.help_keys import HelpKeys
from intentus_tui.tui.idle_collector import IdleCollecting
from intentus_tui.tui.layout import PaneLayout
from intentus_tui.tui.live.messages import (
    DetailLoaded,
    IndexChanged,
    PathsChanged,
)
from intentus_tui.tui.live.project_watch import ProjectWatch, awaited_note
from intentus_tui.tui.live.resync import Resyncing
from intentus_tui.tui.live.watcher import (
    DirectoryWatcher,
    IndexFeeder,
    root_problem,
)
from intentus_tui.tui.presenters.execution_text import (
    cannot_invalidate,
    invalidate_lines,
    snapshot_lines,
)
from intentus_tui.tui.presenters.header_text import HeaderState
from intentus_tui.tui.read_only import ReadOnlyGuard
from intentus_tui.tui.roots import RootSet, RootsSupport
from intentus_tui.tui.scan_fill import ScanFill
from intentus_tui.tui.screen_styles import read_screen_styles
from intentus_tui.tui.screens.command_palette import SafeCommandPalette
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.selection import SelectionActions
from intentus_tui.tui.settings import remember, screenshot_directory
from intentus_tui.tui.startup.first_rows import FirstLook, first_look, first_row_count
from intentus_tui.tui.startup.tuning import (
    collector_paused,
    prepare_pool,
    resume_collector,
)
from intentus_tui.tui.unwatched import NOT_WATCHED, UnwatchedKeys
from intentus_tui.tui.widgets.event_detail import EventDetail
from intentus_tui.tui.widgets.execution_list import ExecutionList
from intentus_tui.tui.widgets.filter_input import FilterInput
from intentus_tui.tui.widgets.footer import AppFooter
from intentus_tui.tui.widgets.header_bar import HeaderBar
from intentus_tui.tui.widgets.side_pane import SidePane
from intentus_tui.tui.widgets.timeline_view import EventLines, TimelineView

if TYPE_CHECKING:
    # Imported where used: what the first frame does not need should not delay it.
    from intentus_tui.core.actions import ExecutionDetail

# Actions that need a selected execution whose record could be read.
_NEEDS_RECORD = {"replay", "force_replay", "invalidate", "save_snapshot", "mark", "diff_file"}


class IntentusApp(
    HelpKeys,
    UnwatchedKeys,
    DiffKeys,
    Filtering,
    ComparePicking,
    SelectionActions,
    ReadOnlyGuard,
    ProjectWatch,
    Resyncing,
    RootsSupport,
    PaneLayout,
    IdleCollecting,
    ScanFill,
    App[None],
):
    """A terminal debugger for recorded agent executions."""

    CSS_PATH = "app.tcss"
    TITLE = "intentus-tui"
    # The list has the keys from the start: keys typed before the app was up (during the
    # start frame) are handled before ``on_mount`` could move the focus there.
    AUTO_FOCUS = "#executions"
    COMMANDS = App.COMMANDS | {ExecutionCommands}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("question_mark", "help", "Help", id="help"),
        # priority: handled before the key reaches the focused widget, so the keys typed
        # right after "/" (one burst from the terminal, or a paste) land in the filter box.
        Binding("slash", "filter", "Filter", id="filter", priority=True),
        Binding(
            "enter,down",
            "filter_done",
            "Back to the list",
            show=False,
            priority=True,
            id="filter.done",
        ),
        Binding("escape", "filter_clear", "Clear filter", priority=True, id="filter.clear"),
        Binding("v", "cycle_view", "View", id="cycle-view"),
        Binding("w", "swap_panes", "Timeline/side", show=False, id="swap-panes"),
        Binding("z", "maximise", "Maximise", show=False, id="maximise"),
        Binding("L", "cycle_layout", "Layout", show=False, id="cycle-layout"),
        Binding("exclamation_mark", "failures_first", "Failures first", id="failures-first"),
        Binding("o", "cycle_sort", "Sort", id="cycle-sort"),
        Binding("p", "toggle_live", "Live/pause", id="toggle-live"),
        Binding("T", "toggle_follow", "Follow newest", show=False, id="follow"),
        Binding("r", "replay", "Replay", id="replay"),
        Binding("R", "force_replay", "Force replay", show=False, id="force-replay"),
        Binding("m", "mark", "Mark for diff", id="mark-for-diff"),
        Binding("d", "diff", "Diff", id="diff"),
        Binding("D", "diff_file", "Compare with…", show=False, id="diff-file"),
        Binding("n", "next_difference", "Next diff", id="next-difference"),
        Binding("N", "previous_difference", "Prev diff", show=False, id="previous-difference"),
        # Wherever the focus is (the list, the Diff tab's parts), but the timeline: its f
        # is the next fallback.
        Binding("f", "full_comparison", "Full screen", id="diff.full-screen"),
        Binding("I", "invalidate", "Invalidate", show=False, id="invalidate"),
        Binding("s", "save_snapshot", "Snapshot", show=False, id="save-snapshot"),
        Binding("1", "side_tab('verify')", "Verify tab", show=False, id="tab-verify"),
        Binding("2", "side_tab('replay')", "Replay tab", show=False, id="tab-replay"),
        Binding("3", "side_tab('diff')", "Diff tab", show=False, id="tab-diff"),
        Binding("4", "side_tab('postmortem')", "Post-mortem tab", show=False, id="tab-postmortem"),
    ]

    _remember_theme = False

    def watch_theme(self, theme: str) -> None:
        """Remember the theme the user picks (the palette's "Change theme")."""
        if self._remember_theme:
            problem = remember("theme", theme)
            if problem:
                self.notify(problem, severity="warning", markup=False)

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Textual saves screenshots to the user's Downloads directory, which a server often
        lacks (then the palette's Screenshot says only "Failed to save screenshot"): save
        them in the first of Downloads, the current directory and the user cache that can
        take them."""
        return super().deliver_screenshot(
            filename, path or str(screenshot_directory()), time_format
        )

    def __init__(
        self,
        root: RecordRoot,
        *,
        watch: bool = True,
        directory_label: str | None = None,
        label_is_name: bool = False,  # the label names the root (a bundle): cut at its end
        keymap: dict[str, str] | None = None,
        keymap_problem: str | None = None,
        use_cache: bool = True,
        roots: RootSet | None = None,
    ) -> None:
        super().__init__()
        root = with_logs_to_come(root) if watch and roots is None else root  # logs to come
        self.root, self.roots = root, roots
        self.watching = watch
        self.keymap = dict(keymap or {})
        self._keymap_problem = keymap_problem
        self.feeder = IndexFeeder(
            root, self.post_message, use_cache=use_cache, index=self.roots_index(use_cache)
        )
        self.header_state = HeaderState.opening(root, directory_label, label_is_name, watch)
        if roots is not None and roots.several:  # not the first root's alone
            self.header_state.read_only = roots.read_only()
        self.detail: ExecutionDetail | None = None  # the selected execution, once loaded
        self.detail_key: str | None = None
        self.marked: ExecutionDetail | None = None  # the left side of the next diff
        self.diff_shown = False
        self._footer_state: tuple[bool, bool, bool] | None = None
        self._side_pane_scheduled = False
        self._styles_after_scan = False  # the comparison's stylesheets wait for the scan
        self._watcher: DirectoryWatcher | None = None
        self._watched_at_start: set[Path] = set()  # the directories there when watching began
        self.directories_gone: tuple[Path, ...] = ()  # of those, the ones not there now
        self._first_rows: list[ExecutionSummary] = []  # read before the app ran
        self._first_frame_out = False
        self._resume_gc = False
        self._detail_waiting: tuple[str, Path] | None = None  # selected before that frame

    def prepare_start(self, first: FirstLook | None = None) -> None:
        """Call just before ``run``: prepares the scan's process pool if it will want one
        (it cannot once Textual holds stdio: see ``prepare_pool``), reads a big
        directory's first rows, so the first frame shows them (see ``first_look``), and
        runs Textual's Linux driver with a prompt escape key (``escape_key``).
        ``first``: what the command line already read that way (for the start frame).

        If the cyclic garbage collector is off (the command line turns it off for the
        start), it comes back on once the first frame is out, with every object made so
        far frozen (never walked again: they live as long as the app).
        """
        self._resume_gc = collector_paused()
        if sys.platform != "win32":  # the escape key without Textual's 0.1 s wait
            from intentus_tui.tui.startup.escape_key import answer_escape_promptly

            answer_escape_promptly(self)
        if first is None:
            first = first_look(self.root.records_dir, first_row_count(), self.root.wal_dir)
        if first.wants_pool:
            prepare_pool()
        self._first_rows = list(first.rows)
        self.header_state.total = first.total  # as the start frame said
        if self._first_rows:
            self.feeder.preview_shown()

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        # References are kept so handlers of messages that arrive while the app shuts down
        # (a detail finishing its load) talk to the widgets rather than query a torn-down DOM.
        self._header = HeaderBar(id="header")
        self._filter = FilterInput(placeholder="filter: id, intent, agent, state…", id="filter")
        self._list = ExecutionList(id="executions", on_select=self.cursor_moved)
        self._timeline = TimelineView(id="timeline")
        self._event_detail = EventDetail(id="event-detail")
        # Built once the first rows are on screen: see ``_build_side_pane``.
        self._side_pane = SidePane(id="side-pane", lazy=True, names_file=self.names_its_file)
        yield self._header
        self._side_pane.add_class("pane")
        with Horizontal(id="main"):
            with Vertical(id="list-pane", classes="pane"):
                yield self._filter
                yield self._list
            with Vertical(id="centre", classes="pane"):
                yield self._timeline
                yield self._event_detail
            yield self._side_pane
        yield AppFooter()

    @property
    def execution_list(self) -> ExecutionList:
        return self._list

    @property
    def timeline(self) -> TimelineView:
        return self._timeline

    @property
    def event_detail(self) -> EventDetail:
        return self._event_detail

    @property
    def side_pane(self) -> SidePane:
        return self._side_pane

    def on_mount(self) -> None:
        if self._exit:  # closed (a signal) before its panes were composed: nothing to set
            return
        problems = [self._keymap_problem] if self._keymap_problem else []
        problems += self.restore_theme()
        self._remember_theme = True  # from now on a theme change is the user's choice
        self.restore_layout()
        if self.keymap:
            from intentus_tui.tui.keymap import checked_keymap, keymap_path

            self.keymap, problem = checked_keymap(self.keymap, self.help_sections())
            self.set_keymap(self.keymap)
            if problem:
                problems.append(f"keymap {keymap_path()}: {problem}")
        if problems:
            text = sanitize_line("; ".join(problems))
            self.notify(text, severity="warning", markup=False, timeout=15)
        listing = self.execution_list
        listing.border_title = "Executions"
        listing.empty_message = "Indexing…"
        self.timeline.border_title = "Timeline"
        self.event_detail.border_title = "Event"
        self.timeline.show_message("Select an execution to see its timeline.")
        self.event_detail.show_message("")
        listing.focus()
        self._update_titles()
        self._show_header()
        if self._first_rows:
            self.on_index_changed(IndexChanged(tuple(self._first_rows), scanned=0))
            self._first_rows = []
        self.call_after_refresh(self._first_frame_shown)

    def _first_frame_shown(self) -> None:
        """Start what would compete with the first frame for the interpreter (its lock
        is shared by every thread): watching, the scan, the selected execution's detail.
        Started before it, they delayed it by a tenth of a second."""
        self._first_frame_out = True
        if self._resume_gc:
            self._resume_gc = False
            resume_collector()
        self.start_idle_collector()  # full collections wait for the keys to rest
        if self.watching:
            self.follow_compared_snapshots()
        if self.watching and root_problem(self.root) is None:
            self._follow_directory()  # it starts the scan once the watch is in place
            if self.roots is None:
                self.await_project(self.root)
        else:
            if self.watching:
                self.header_state.live = "stopped"
            self._start_scan()
        if self._detail_waiting is not None:
            self._load_detail(*self._detail_waiting)
            self._detail_waiting = None

    def _handle_exception(self, error: Exception) -> None:
        if (self._exit or self.closing) and isinstance(
            error, NoMatches | ValueError | AttributeError
        ):
            # Asked to close (q, a signal, a test's end) while a pane was still being
            # built: its widgets are taken down under it (a tab gone, a child never
            # composed). Not a crash: the user is leaving, and it said so with exit 1 and
            # a traceback.
            return
        super()._handle_exception(error)

    @property
    def closing(self) -> bool:
        """Whether the app has begun to close (or was never started). Its widgets are then
        being taken down, children first, so a result from a background thread that
        arrives now (a detail, a batch of rows) has nowhere to go: a pane's parent may
        still be mounted while the tabs it would fill are gone."""
        return not self.is_running

    def action_command_palette(self) -> None:
        """The command palette (``ctrl+p``), never over a dialog: from there a command
        acted behind a confirmation still asked (selecting another execution under "Force
        a replay?") or stacked a second one on it."""
        if isinstance(self.screen, ModalScreen):  # a dialog, or the palette itself
            if not isinstance(self.screen, SafeCommandPalette):
                self.bell()
            return
        if self.use_command_palette:
            self.push_screen(SafeCommandPalette(id="--command-palette"))

    def exit(self, result: None = None, return_code: int = 0, message: Any | None = None) -> None:
        self._stop_threads()  # a scan must not hold up the exit
        super().exit(result, return_code, message)

    def on_unmount(self) -> None:
        # Closed without exit() (a test's end, an embedding app): no thread outlives it.
        self._stop_threads()
        self._release_collector()

    def _stop_threads(self) -> None:
        self.feeder.stop()
        self.stop_roots()
        if self._watcher is not None:
            self._watcher.stop()

    # ------------------------------------------------------------------ index workers

    @work(thread=True, group="index-update", exit_on_error=False)
    def _drain(self) -> None:
        self.feeder.drain()

    def _follow_directory(self) -> None:
        # Named so: a ``watch_*`` method would be taken for a reactive's watcher.
        directories = self.watched_directories()
        # What was there when watching began: its loss is said (a records directory not
        # made yet, beside its logs, is not lost).
        self._watched_at_start = {d for d in directories if d.is_dir()}
        self._watcher = DirectoryWatcher(directories, self.post_message)
        self._watcher.start()  # it posts WatchStarted, which starts the scan

    def on_watch_started(self) -> None:
        self._start_scan()
        self.start_roots()  # remote roots: the watcher now sees each copied file arrive

    def on_paths_changed(self, message: PathsChanged) -> None:
        if self.closing:
            return
        self.queue_paths(message.paths)

    def queue_paths(self, paths: Iterable[Path]) -> None:
        """Re-read these paths (now if live; when resumed if paused)."""
        if self.feeder.add(paths):
            self._drain()
        if not self.feeder.live:
            self._show_header()

    def all_summaries(self) -> Iterable[ExecutionSummary]:
        return self.execution_list.model.summaries.values()

    @on(ExecutionList.RowsDrawn)
    def _build_side_pane_soon(self) -> None:
        """Build the side pane's tabs once the first rows are drawn (or the scan found
        none): they cost a sixth of a second (more on a busy machine) that the first rows
        should not wait for. (``call_after_refresh`` after the first batch was not enough:
        it can run before the frame with the rows is composed.)"""
        if not self._side_pane_scheduled:
            self._side_pane_scheduled = True
            self.call_later(self._build_side_pane)

    async def _build_side_pane(self) -> None:
        if self.side_pane.is_attached and not self.closing:
            await self.side_pane.build()
            if self.scan_done:  # not on the first d or D
                self.call_after_refresh(read_screen_styles, self)
            else:  # read while the list fills, they would cost the fill a quarter second
                self._styles_after_scan = True

    # ------------------------------------------------------------------ header & titles

    def _show_header(self) -> None:
        state = self.header_state
        state.counts = self.execution_list.model.counts
        state.writing = self.execution_list.writing_by_group()
        state.pending = self.feeder.pending_count if state.live == "paused" else 0
        name, state.marked_file = self.marked_name()
        state.marked = name or None
        state.marked_removed = self.marked_removed
        state.shown = self.execution_list.model.shown_count
        roots = self.roots_line(len(self.execution_list.model.summaries))
        if roots:
            state.roots = tuple(roots)
            state.directory = " · ".join(roots)
        self._header.show(state)

    def _update_titles(self) -> None:
        self.execution_list.show_subtitle()

    def _update_empty_message(self) -> None:
        listing = self.execution_list
        directory = self.records_where()
        if self._scan_problem:
            listing.empty_message = (
                f"Cannot read this directory: {self._scan_problem}.\n{directory}"
            )
        elif not self.scan_done:
            listing.empty_message = "Indexing…"
        elif not listing.model.summaries and self.header_state.trouble:
            listing.empty_message = f"{self.header_state.trouble}."
        elif not listing.model.summaries:
            where = awaited_note(self.root)
            lines = [f"No execution records (*.json) in {directory}.", self.runs_here_note()]
            lines += (
                [f"New records will appear as they are written{where}."] if self.watching else []
            )
            listing.empty_message = "\n".join(line for line in lines if line)
        else:  # what hides them: the view, the filter, or both
            ways = ["v to change the view"] if listing.model.view.only is not None else []
            ways += ["esc to clear the filter"] if self._filter.value else []
            listing.empty_message = f"No executions match (view: {listing.model.view.label}).\n" + (
                f"Press {', or '.join(ways)}." if ways else ""
            )
        listing.refresh()

    # ------------------------------------------------------------------ selection

    @on(ExecutionList.Highlighted)
    def _execution_highlighted(self, message: ExecutionList.Highlighted) -> None:
        summary = message.summary  # the panes stopped showing the row left: cursor_moved
        self.selection_moved()
        if summary is None:
            self.detail = None
            self.detail_key = None
            self._detail_waiting = None
            self._refresh_footer()
            return
        if summary.key != self.execution_list.selected_key:
            return  # the cursor has moved on since: the message of its move loads that row
        path = self.file_of(summary)
        if self._first_frame_out:
            self._load_detail(summary.key, path)
        else:
            self._detail_waiting = (summary.key, path)

    def reload_shown_detail(self) -> None:
        """Read the selected execution again (its directory can be listed again: what was
        shown meanwhile may be stale)."""
        summary = self.execution_list.selected_summary
        if summary is not None and self._first_frame_out:
            self._load_detail(summary.key, self.file_of(summary))

    def _load_detail(self, key: str, path: Path) -> None:
        # Its row knows what its file cannot: a record file seen, then removed.
        listed = self.execution_list.model.summaries.get(key)
        self._read_detail(key, path, listed is not None and listed.record_removed)

    @work(thread=True, exclusive=True, group="detail", exit_on_error=False)
    def _read_detail(self, key: str, path: Path, record_removed: bool) -> None:
        detail = self.read_detail(path, record_removed=record_removed)
        if not get_current_worker().is_cancelled:
            self.post_message(DetailLoaded(key, detail))

    def on_detail_loaded(self, message: DetailLoaded) -> None:
        if self.closing:
            return
        if message.key != self.execution_list.selected_key:
            return  # the selection moved on while this was loading
        same = message.key == self.shown_key  # re-read (its file changed): keep the place
        if same and self._unread_for_now(message.detail):
            return  # its directory cannot be listed: what was read stays, as its row does
        self.detail = message.detail
        self.detail_key = message.key
        if self.is_marked(message.detail) and not self.marked_removed:
            self.marked = message.detail  # A of the next d as its file reads now (``I``: differs)
        # The verdict of the bytes the timeline shows (the list row's too, once it is
        # the newer read): its chain and its outcome never disagree.
        listed = self.execution_list.model.summaries.get(message.key)
        summary = self.execution_list.as_read(message.key, message.detail.summary)
        if summary is not listed:
            self._show_header()  # its counts moved with it
        if message.key != self.execution_list.selected_key:
            return  # the newer read took its row out of the view: the cursor left it
        self.shown_key = message.key
        verdict = self.execution_list.verdict_shown(message.key, summary)
        self.timeline.show_detail(message.detail, keep_cursor=same, verdict=verdict)
        self.side_pane.verdict = verdict
        self.side_pane.detail = message.detail
        if same:  # its file changed: a comparison showing it is made again
            self.compare_again_with(message.detail)
        self._refresh_footer()
        self.selection_loaded()

    def _unread_for_now(self, detail: ExecutionDetail) -> bool:
        """A re-read that could not read the file while a watched directory cannot be
        listed (the header says so): not news about the record."""
        unread = detail.result.status is LoadStatus.UNREADABLE
        return unread and self.header_state.trouble is not None and self.detail is not None

    @on(EventLines.Highlighted)
    def _event_highlighted(self, message: EventLines.Highlighted) -> None:
        if self.detail is not None and self.shown_key == self.detail_key:  # not loading
            self.event_detail.show_event(self.detail, message.index)

    def jump_to_execution(self, key: str) -> None:
        """Select ``key`` even if the current view or filter hides it."""
        listing = self.execution_list
        if listing.model.row_of(key) is None:
            filter_input = self._filter
            filter_input.value = ""
            filter_input.display = False
            while listing.model.view.name != "grouped":
                listing.cycle_view()
            listing.set_query("")
            self._update_titles()
        if listing.select_key(key):
            listing.focus()

    # ------------------------------------------------------------------ view, sort

    def action_cycle_view(self) -> None:
        note = self.execution_list.cycle_view()
        self._after_view_change(note)

    def action_failures_first(self) -> None:
        note = self.execution_list.show_failures_first()
        self.execution_list.focus()
        self._after_view_change(note)

    def action_cycle_sort(self) -> None:
        label = self.execution_list.cycle_sort()
        if self.execution_list.sorting is None:
            self._after_view_change(f"Sort: {label}")
        else:  # a big list: "sorting…" until the worker's order is in place
            self._update_titles()

    @on(ExecutionList.Sorted)
    def _sorted(self, message: ExecutionList.Sorted) -> None:
        self._after_view_change(f"Sort: {message.label}")

    def _after_view_change(self, note: str) -> None:
        self._update_titles()
        self._update_empty_message()
        self._show_header()
        self.notify(note, timeout=1.5)

    def action_toggle_live(self) -> None:
        if self.header_state.live in ("off", "stopped"):
            self.notify("Not watching this directory", severity="warning")
            return
        live = self.header_state.live != "live"
        self.header_state.live = "live" if live else "paused"
        if self.feeder.set_live(live):
            self._drain()
        self._show_header()

    def action_toggle_follow(self) -> None:
        self.execution_list.set_following(not self.execution_list.following)

    def on_execution_list_follow_changed(self, message: ExecutionList.FollowChanged) -> None:
        self.header_state.following = message.following
        self._show_header()
        if message.following and self.header_state.live != "live":  # paused ("off": no T)
            self.notify("Following: new executions show once live is on (p)", timeout=3)

    # ------------------------------------------------------------------ side pane actions

    def _action_state(self) -> tuple[bool, bool, bool]:
        """What ``check_action`` answers for the record actions and ``d``: while the
        execution under the cursor loads, its keys are taken (they wait for it)."""
        loading, detail = self.selection_loading(), self.detail
        has_record = loading or (detail is not None and detail.result.record is not None)
        other = detail is not None and not self.is_marked(detail)
        usable = self.marked is not None and self.marked_problem() is None
        marking = usable or self._marking is not None
        diff_ready = marking and (loading or other)
        return has_record, diff_ready, self.diff_shown

    def _refresh_footer(self) -> None:
        """Refresh the bindings only when what ``check_action`` answers changed: a footer
        refresh re-lays out the screen, too slow to do on every cursor move."""
        state = self._action_state()
        if state != self._footer_state:
            self._footer_state = state
            self.refresh_bindings()

    @classmethod
    def _main_screen_actions(cls) -> frozenset[str]:
        """This app's own actions but quitting and help: for the main screen only."""
        actions = {b.action for b in cls.BINDINGS if isinstance(b, Binding)}
        return frozenset(actions - {"quit", "help"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "filter_done":
            return self._filter_focused()  # otherwise enter means what it usually does
        if action == "filter_clear":  # in the box, or on the list while a filter applies
            on_list = self.screen.focused is self.execution_list and bool(self._filter.value)
            return self._filter_focused() or on_list
        if action == "filter":  # priority binding: leave "/" to modal screens' own inputs
            return self.screen is self.screen_stack[0]
        if self.screen is not self.screen_stack[0] and action in self._main_screen_actions():
            return False  # a dialog or the comparison is on top: the list's keys wait for it
        if action in NOT_WATCHED:  # never watched (a bundle): nothing to pause or follow
            return self.watched()
        if action == "diff_file" and self.execution_list.selected_key is None:
            return True  # nothing selected, none listed: D compares two Active Graph runs
        if action in _NEEDS_RECORD:  # one without a record too: the key says why (a toast)
            return True if self._action_state()[0] or self.detail is not None else None
        if action == "diff":
            return True if self._action_state()[1] else None
        if action in COMPARISON_KEYS:  # hidden until there is one (they say so: DiffKeys)
            return self.diff_shown
        return True

    async def action_side_tab(self, name: str) -> None:
        if not self.act_when_loaded(f"side_tab({name!r})"):
            return
        await self.side_pane.build()
        self.show_side_pane(name)

    async def action_replay(self) -> None:
        if self.record_to_act_on("replay") is None:
            return
        self.show_side_pane("replay")
        await self.side_pane.run_replay(False)

    def action_invalidate(self) -> None:
        detail = self.record_to_act_on("invalidate")
        if detail is None or self.refuse_write("Invalidate", self.root_of(detail.path)):
            return
        if (why := cannot_invalidate(detail)) is not None:  # no confirm that cannot work
            self._report(why, "warning")
            return

        name = self.long_name(detail)  # as the dialog names it, for the toast after

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._invalidate(detail, name)

        self.push_screen(
            ConfirmScreen(
                "Invalidate this record?",
                invalidate_lines(detail, self.names_its_file(detail.path)),
                "Invalidate",
            ),
            confirmed,
        )

    @work(thread=True, group="write", exit_on_error=False)
    def _invalidate(self, detail: ExecutionDetail, name: str) -> None:
        from intentus_tui.core.actions import ActionError, invalidate

        try:
            invalidate(detail)
        except ActionError as exc:
            self.call_from_thread(self._report, f"Not invalidated: {exc}", "error")
            return
        self.call_from_thread(self._report, f"Invalidated {name}", "information")
        self.call_from_thread(self._refresh_now, [detail.path])

    def action_save_snapshot(self) -> None:
        from intentus_tui.core.actions import snapshot_warnings
        from intentus_tui.core.compare.targets import snapshot_directory

        detail = self.record_to_act_on("save_snapshot")
        if detail is None or self.refuse_write("Save snapshot", self.root_of(detail.path)):
            return
        directory = snapshot_directory(self.root_of(detail.path))
        by_file = self.names_its_file(detail.path)
        lines = snapshot_lines(detail, str(directory), snapshot_warnings(detail), by_file)

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._save_snapshot(detail, directory)

        self.push_screen(ConfirmScreen("Save a snapshot?", lines, "Save"), confirmed)

    @work(thread=True, group="write", exit_on_error=False)
    def _save_snapshot(self, detail: ExecutionDetail, directory: Path) -> None:
        from intentus_tui.core.actions import ActionError, save_snapshot

        try:
            path = save_snapshot(detail, directory)
        except ActionError as exc:
            self.call_from_thread(self._report, f"Snapshot not saved: {exc}", "error")
            return
        self.call_from_thread(self.snapshot_saved, path)

    def _report(self, text: str, severity: Any) -> None:
        self.notify(sanitize_line(text), severity=severity, markup=False, timeout=6)

    def _refresh_now(self, paths: list[Path]) -> None:
        """The operator's own write: show it even while paused."""
        if self.feeder.add(paths, force=True):
            self._drain()

    # ------------------------------------------------------------------ help & palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from intentus_tui.tui.commands import app_commands

        # Textual's "Keys" panel beside our "Help: keys" made two entries for one question;
        # its "Maximize" (another way to maximise, spelled otherwise) beside our ``z``.
        theirs = ("Keys", "Maximize", "Minimize")
        yield from (c for c in super().get_system_commands(screen) if c.title not in theirs)
        yield from app_commands(self)
