"""The debugger's right-hand pane: Verify, Replay, Diff and Post-mortem tabs.

Attributes down: the app sets ``side_pane.detail`` and every tab follows. The app binds
the keys and calls ``show_tab``, ``run_replay``, ``show_diff``/``show_comparison`` and
``next_difference``/``previous_difference``. A forced replay is confirmed by the app first
(``screens.confirm.ConfirmScreen`` with ``force_replay_lines``), then ``run_replay(True)``.

``SidePane(lazy=True)`` (the debugger's) starts empty and builds its tabs on ``build()``
(or on the first call that needs them): the tabs and the modules behind them cost about
a sixth of a second of start-up, which the first rows of the list should not wait for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.worker import Worker

from intentus_tui.tui.presenters.list_rows import file_label
from intentus_tui.tui.presenters.verdict_cells import WritingVerdict

if TYPE_CHECKING:  # the tabs' modules are imported when the tabs are built
    from textual.screen import Screen
    from textual.widgets import TabbedContent

    from intentus_tui.core.actions import ExecutionDetail, Operand
    from intentus_tui.core.model import Verdict
    from intentus_tui.tui.widgets.diff_pane import DiffOutcome, DiffPane
    from intentus_tui.tui.widgets.postmortem_pane import PostmortemPane
    from intentus_tui.tui.widgets.replay_pane import ReplayOutcome, ReplayPane
    from intentus_tui.tui.widgets.verify_pane import VerifyPane

TabName = Literal["verify", "replay", "diff", "postmortem"]
TAB_NAMES: tuple[str, ...] = ("verify", "replay", "diff", "postmortem")
# The tabs' labels, widest first, and the padding each tab is drawn with (left, right): the
# first that fits the pane's width is shown, so that every tab's name is whole and all four
# stay in sight at every width (Textual cut the strip at the pane's edge and, on the fourth
# tab, scrolled the first out of sight: "fy  Replay  Diff  Post-morte" at 56-60 columns).
# Closer together first, then shorter, as an IDE's tab strip too narrow for its tabs does,
# rather than scrolled: a scrolled strip hides tabs (1-4 switch to any of them anyway).
FULL, SHORT, SHORTER, LETTERS = (
    ("Verify", "Replay", "Diff", "Post-mortem"),
    ("Verify", "Replay", "Diff", "Post"),
    ("Ver", "Rep", "Diff", "Post"),
    ("V", "R", "D", "P"),
)
SPACED, CLOSE = (1, 1), (1, 0)
TAB_LABELS: tuple[tuple[tuple[str, ...], tuple[int, int]], ...] = (
    (FULL, SPACED),  # 35 cells
    (FULL, CLOSE),  # 31
    (SHORT, SPACED),  # 28
    (SHORT, CLOSE),  # 24
    (SHORTER, SPACED),  # 23
    (SHORTER, CLOSE),  # 18
    (LETTERS, SPACED),  # 12
    (LETTERS, CLOSE),  # 8
)


def tab_labels(width: int) -> tuple[tuple[str, ...], tuple[int, int]]:
    """The tabs' labels and padding that fit ``width`` cells (the narrowest below that)."""
    for labels, padding in TAB_LABELS:
        if sum(len(label) + sum(padding) for label in labels) <= width:
            return labels, padding
    return TAB_LABELS[-1]


def _never(path: Path) -> bool:
    return False


class SidePane(Widget):
    """Four tabs about the selected execution. Setting ``detail`` refreshes all of them."""

    DEFAULT_CSS = """
    SidePane { height: 1fr; }
    SidePane > TabbedContent { height: 1fr; }
    SidePane > TabbedContent > ContentSwitcher { height: 1fr; }
    SidePane TabPane { padding: 0; height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # As from the timeline: the focus back to the list, wherever the tab took it (after
        # r on a narrow screen, escape then j scrolled the tab, not the list).
        Binding("escape", "app.back_to_list", "Back to list", show=False, id="side.back"),
    ]

    detail: reactive[ExecutionDetail | None] = reactive(None, always_update=True, init=False)
    # The selected execution's verdict (as its list row shows it): set before ``detail``.
    verdict: Verdict | None = None

    def __init__(
        self,
        *,
        lazy: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        names_file: Callable[[Path], bool] = _never,
    ) -> None:
        """``names_file``: whether the list names a record file's row by its file, not its
        id (another file holds the id: a copy); the border and the Diff tab name it so."""
        super().__init__(name=name, id=id, classes=classes)
        self._names_file = names_file
        self._lazy = lazy
        self._initial_tab = "verify"
        self._building = False
        self._ready = False  # the tabs are mounted
        self._built = asyncio.Event()
        self._loading: str | None = None  # see ``show_loading``
        self.root_label = ""  # with several roots, the selected execution's (sanitized)
        self._subject: Content | None = None  # the selected execution's name, or the loading
        self._labels = TAB_LABELS[0]  # the tabs' labels and padding shown (``tab_labels``)

    def render(self) -> str:
        # Under the tabs, or alone until they are built: blank (Textual's default shows
        # the widget's class and id, "SidePane#side-pane", in the first frames).
        return ""

    def compose(self) -> ComposeResult:
        if not self._lazy:
            self._building = True
            yield self._tabs()

    def _tabs(self) -> TabbedContent:
        from textual.widgets import TabbedContent, TabPane

        from intentus_tui.tui.widgets.diff_pane import DiffPane
        from intentus_tui.tui.widgets.postmortem_pane import PostmortemPane
        from intentus_tui.tui.widgets.replay_pane import ReplayPane
        from intentus_tui.tui.widgets.verify_pane import VerifyPane

        tabs = TabbedContent(initial=self._initial_tab)
        for pane in (
            TabPane("Verify", VerifyPane(id="verify-pane"), id="verify"),
            TabPane("Replay", ReplayPane(id="replay-pane"), id="replay"),
            TabPane("Diff", DiffPane(id="diff-pane"), id="diff"),
            TabPane("Post-mortem", PostmortemPane(id="postmortem-pane"), id="postmortem"),
        ):
            tabs.compose_add_child(pane)  # what ``with TabbedContent():`` does in compose
        return tabs

    def on_mount(self) -> None:
        if self._building:
            self._mounted_tabs()

    def _mounted_tabs(self) -> None:
        from textual.widgets import Tabs

        strips = self.query(Tabs)
        if not strips:  # the app closed (q, a signal) while they were mounted: torn down
            self._built.set()
            return
        # The tab strip takes no focus: 1-4 switch tabs, and tab goes straight to the text,
        # which j/k then scroll (on the strip they did nothing).
        strips.first().can_focus = False
        self._labels = TAB_LABELS[0]
        self._fit_tab_labels()
        self.screen.screen_layout_refresh_signal.subscribe(self, self._underline_the_active_tab)
        self._ready = True
        self._built.set()
        self._push_detail(self.detail)

    def on_resize(self) -> None:
        if self._ready:
            self._fit_tab_labels()

    def _underline_the_active_tab(self, _screen: Screen[Any]) -> None:
        """After each layout of the screen: the tab strip's underline under its active tab.
        Textual moves it when a tab is chosen (measuring the tab once the screen is next
        idle) or when the strip is resized. A tab chosen while the screen was covered (the
        Diff tab, under a full-screen comparison) was measured where the hidden pane had
        left it: back on the screen, the underline stayed under no tab."""
        from textual.widgets import Tabs
        from textual.widgets._tabs import Underline

        for strip in self.query(Tabs):
            active = strip.active_tab
            if active is None or not strip.region:
                continue
            underline = strip.query_one(Underline)
            start, end = active.virtual_region.shrink(active.styles.gutter).column_span
            animator = self.app.animator
            if (underline.highlight_start, underline.highlight_end) != (start, end) and not (
                animator.is_being_animated(underline, "highlight_start")
                or animator.is_being_animated(underline, "highlight_end")
            ):
                strip._highlight_active(animate=False)

    def _fit_tab_labels(self) -> None:
        """The tabs' labels that fit the pane's width (``TAB_LABELS``), if they changed."""
        from textual.widgets import TabbedContent

        fitting = tab_labels(self.content_size.width)
        if fitting == self._labels:
            return
        self._labels = fitting
        labels, (left, right) = fitting
        tabs = self.query_one(TabbedContent)
        for name, label in zip(TAB_NAMES, labels, strict=True):
            tab = tabs.get_tab(name)
            tab.label = label
            tab.styles.padding = (0, right, 0, left)

    @property
    def ready(self) -> bool:
        """Whether the tabs are built and mounted (always, unless ``lazy``)."""
        return self._ready

    async def build(self) -> None:
        """Build and mount the tabs now, if they are not already (or being built)."""
        if self._building:  # built, or another caller is mounting them: wait for that
            await self._built.wait()
            return
        self._building = True
        await self.mount(self._tabs())
        self._mounted_tabs()

    def watch_detail(self, detail: ExecutionDetail | None) -> None:
        # Which execution the tabs are about, on the border: on a narrow screen the side
        # pane takes the timeline's place, and only the list's cursor said it.
        if detail is not None and detail.summary is not None:
            self._subject = Content(self._short_name(detail))
        elif detail is None and self._loading is None:
            self._subject = None
        if self._ready and self.is_mounted:
            self._push_detail(detail)
        self._show_title()

    def _short_name(self, detail: ExecutionDetail) -> str:
        """The execution in a few cells: its short id, or its file's name (cut as its row
        cuts it) where another file holds the id."""
        if self._names_file(detail.path):
            name = file_label(detail.path.name).rstrip()
        else:
            name = detail.summary.short_id if detail.summary is not None else detail.path.name
        return f"{self.root_label}:{name}" if self.root_label else name

    def _files(self, *paths: Path | None) -> frozenset[Path]:
        """Those of ``paths`` named by their file (``names_file``)."""
        return frozenset(p for p in paths if p is not None and self._names_file(p))

    def _show_title(self) -> None:
        """The border names the selected execution; on the Diff tab, when the comparison it
        holds is of others (made before the cursor moved), that comparison instead: it
        showed the old comparison under the new execution's id."""
        title = self._subject
        if self._ready and self.active_tab == "diff" and self.diff_pane.elsewhere:
            sides = self.diff_pane.sides_name()
            title = Content(sides) if sides is not None else title
        self.border_title = title

    def on_tabbed_content_tab_activated(self) -> None:
        self._show_title()

    def _push_detail(self, detail: ExecutionDetail | None) -> None:
        # The diff tab keeps its comparison while the user browses (a newer one supersedes
        # it): of another execution than the selected one, it says so, and the border
        # names its sides (``_show_title``).
        if not self.app.is_running:
            # The app is closing (as ``IntentusApp.closing`` says): its tabs are removed
            # before this pane, and a detail that finished loading meanwhile has nowhere to go.
            return
        self.verify_pane.verdict = self.verdict if detail is not None else None
        self.replay_pane.by_file = detail is not None and self._names_file(detail.path)
        self.replay_pane.writing = detail is not None and isinstance(self.verdict, WritingVerdict)
        for tab in (self.verify_pane, self.replay_pane, self.postmortem_pane):
            tab.loading_label = self._loading if detail is None else None
            tab.detail = detail
        summary = detail.summary if detail is not None else None
        self.diff_pane.select(
            detail.path if detail is not None else None,
            self._short_name(detail) if detail is not None and summary is not None else None,
        )

    def compare_again_with(self, detail: ExecutionDetail) -> None:
        """The Diff tab compares again a side whose file was read again (it changed)."""
        if self._ready:
            self.diff_pane.compare_again_with(detail)

    def show_loading(self, label: str | None) -> None:
        """The execution ``label`` (made safe) is being read (None: none is selected): no
        tab goes on showing the execution before it."""
        self._loading = label
        self.verdict = None
        self._subject = None if label is None else Content(label)
        self.detail = None

    # ------------------------------------------------------------------ parts

    @property
    def verify_pane(self) -> VerifyPane:
        from intentus_tui.tui.widgets.verify_pane import VerifyPane

        return self.query_one(VerifyPane)

    @property
    def replay_pane(self) -> ReplayPane:
        from intentus_tui.tui.widgets.replay_pane import ReplayPane

        return self.query_one(ReplayPane)

    @property
    def diff_pane(self) -> DiffPane:
        from intentus_tui.tui.widgets.diff_pane import DiffPane

        return self.query_one(DiffPane)

    @property
    def postmortem_pane(self) -> PostmortemPane:
        from intentus_tui.tui.widgets.postmortem_pane import PostmortemPane

        return self.query_one(PostmortemPane)

    @property
    def active_tab(self) -> str:
        if not self._ready:
            return self._initial_tab
        from textual.widgets import TabbedContent

        return self.query_one(TabbedContent).active

    # ------------------------------------------------------------------ the contract

    def show_tab(self, name: str) -> None:
        """Switch to "verify", "replay", "diff" or "postmortem" (the first shown, if the
        tabs are still to be built)."""
        if name not in TAB_NAMES:
            raise ValueError(f"unknown side pane tab {name!r}; expected one of {TAB_NAMES}")
        if not self._ready:
            self._initial_tab = name
            return
        from textual.widgets import TabbedContent, TabPane

        tabs = self.query_one(TabbedContent)
        # The focus in a tab about to be hidden goes to the tab shown, once it is shown (a
        # widget of a pane still hidden, focused, makes the tabs show that pane instead):
        # page down and home scrolled the hidden tab, and the next Tab went elsewhere.
        focused = self.screen.focused
        pane = tabs.get_pane(name)
        panes = set(tabs.query(TabPane))
        leaving = focused is not None and not panes.isdisjoint(focused.ancestors)
        from intentus_tui.tui.widgets.pane_text import LinesPane

        for lines in pane.query(LinesPane):  # its lines in the frame that shows it
            lines.fill()
        tabs.active = name
        if leaving and focused is not None and pane not in focused.ancestors:
            self.call_after_refresh(self._focus_in, pane)

    def _focus_in(self, pane: Widget) -> None:
        target = next((w for w in pane.query("*") if w.focusable), None)
        if target is not None:
            target.focus()

    async def run_replay(self, force: bool = False) -> Worker[ReplayOutcome] | None:
        """Replay the current execution in a thread worker and show it in the Replay tab.

        Returns the worker (``await worker.wait()`` to wait for it), or None without a
        detail. Non-forced replay of a non-replayable record shows the refusal and its reason.
        Forced: confirm with the user first (the app shows ``ConfirmScreen``).
        """
        await self.build()
        self.show_tab("replay")
        return self.replay_pane.start(force)

    def show_diff(
        self,
        left: ExecutionDetail,
        right: ExecutionDetail,
        roots: tuple[str | None, str | None] = (None, None),
    ) -> Worker[DiffOutcome]:
        """Compare two executions (A = left, B = right) in the Diff tab (``build()`` first);
        ``roots``: the root each is in, to name it by, when several roots are open."""
        self.show_tab("diff")
        worker = self.diff_pane.show_diff(left, right, roots, self._files(left.path, right.path))
        self._show_title()
        return worker

    def show_comparison(
        self, left_label: str, left: Operand, right_label: str, right: Operand
    ) -> Worker[DiffOutcome]:
        """Compare two operands, e.g. a record against a snapshot or baseline file."""
        self.show_tab("diff")
        files = self._files(
            *(side.path for side in (left, right) if side.kind == "record")  # not a snapshot
        )
        worker = self.diff_pane.show_comparison(left_label, left, right_label, right, files)
        self._show_title()
        return worker

    def show_diff_values(
        self, left_label: str, left_value: Any, right_label: str, right_value: Any
    ) -> Worker[DiffOutcome]:
        """Compare two JSON values as they are."""
        self.show_tab("diff")
        worker = self.diff_pane.show_diff_values(left_label, left_value, right_label, right_value)
        self._show_title()
        return worker

    def next_difference(self) -> bool:
        """Move the diff cursor to the next difference (False at the last one)."""
        return self._ready and self.diff_pane.next_difference()

    def previous_difference(self) -> bool:
        return self._ready and self.diff_pane.previous_difference()
