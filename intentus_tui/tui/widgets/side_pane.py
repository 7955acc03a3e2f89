"""The debugger's right-hand pane: Verify, Replay, Diff and Post-mortem tabs.

Attributes down: the app sets ``side_pane.detail`` and every tab follows. The app binds
the keys and calls ``show_tab``, ``run_replay``, ``show_diff``/``show_diff_values`` and
``next_difference``/``previous_difference``. A forced replay is confirmed by the app first
(``screens.confirm.ConfirmScreen`` with ``force_replay_lines``), then ``run_replay(True)``.
"""

from __future__ import annotations

from typing import Any, Literal

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane
from textual.worker import Worker

from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.tui.widgets.diff_pane import DiffOutcome, DiffPane
from intentus_tui.tui.widgets.postmortem_pane import PostmortemPane
from intentus_tui.tui.widgets.replay_pane import ReplayOutcome, ReplayPane
from intentus_tui.tui.widgets.verify_pane import VerifyPane

TabName = Literal["verify", "replay", "diff", "postmortem"]
TAB_NAMES: tuple[str, ...] = ("verify", "replay", "diff", "postmortem")


class SidePane(Widget):
    """Four tabs about the selected execution. Setting ``detail`` refreshes all of them."""

    DEFAULT_CSS = """
    SidePane { height: 1fr; }
    SidePane > TabbedContent { height: 1fr; }
    SidePane > TabbedContent > ContentSwitcher { height: 1fr; }
    SidePane TabPane { padding: 0; height: 1fr; }
    """

    detail: reactive[ExecutionDetail | None] = reactive(None, always_update=True, init=False)

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)

    def compose(self) -> ComposeResult:
        with TabbedContent(initial="verify"):
            with TabPane("Verify", id="verify"):
                yield VerifyPane(id="verify-pane")
            with TabPane("Replay", id="replay"):
                yield ReplayPane(id="replay-pane")
            with TabPane("Diff", id="diff"):
                yield DiffPane(id="diff-pane")
            with TabPane("Post-mortem", id="postmortem"):
                yield PostmortemPane(id="postmortem-pane")

    def on_mount(self) -> None:
        self._push_detail(self.detail)

    def watch_detail(self, detail: ExecutionDetail | None) -> None:
        if self.is_mounted:
            self._push_detail(detail)

    def _push_detail(self, detail: ExecutionDetail | None) -> None:
        # The diff tab keeps its comparison: it is labelled with both ids, so it stays true
        # while the user browses; a newer comparison supersedes it.
        self.verify_pane.detail = detail
        self.replay_pane.detail = detail
        self.postmortem_pane.detail = detail

    # ------------------------------------------------------------------ parts

    @property
    def verify_pane(self) -> VerifyPane:
        return self.query_one(VerifyPane)

    @property
    def replay_pane(self) -> ReplayPane:
        return self.query_one(ReplayPane)

    @property
    def diff_pane(self) -> DiffPane:
        return self.query_one(DiffPane)

    @property
    def postmortem_pane(self) -> PostmortemPane:
        return self.query_one(PostmortemPane)

    @property
    def active_tab(self) -> str:
        return self.query_one(TabbedContent).active

    # ------------------------------------------------------------------ the contract

    def show_tab(self, name: str) -> None:
        """Switch to "verify", "replay", "diff" or "postmortem"."""
        if name not in TAB_NAMES:
            raise ValueError(f"unknown side pane tab {name!r}; expected one of {TAB_NAMES}")
        self.query_one(TabbedContent).active = name

    async def run_replay(self, force: bool = False) -> Worker[ReplayOutcome] | None:
        """Replay the current execution in a thread worker and show it in the Replay tab.

        Returns the worker (``await worker.wait()`` to wait for it), or None without a
        detail. Non-forced replay of a non-replayable record shows the refusal and its reason.
        Forced: confirm with the user first (the app shows ``ConfirmScreen``).
        """
        self.show_tab("replay")
        return self.replay_pane.start(force)

    def show_diff(self, left: ExecutionDetail, right: ExecutionDetail) -> Worker[DiffOutcome]:
        """Compare two executions (A = left, B = right) in the Diff tab."""
        self.show_tab("diff")
        return self.diff_pane.show_diff(left, right)

    def show_diff_values(
        self, left_label: str, left_value: Any, right_label: str, right_value: Any
    ) -> Worker[DiffOutcome]:
        """Compare two JSON values, e.g. a record against a snapshot or baseline file."""
        self.show_tab("diff")
        return self.diff_pane.show_diff_values(left_label, left_value, right_label, right_value)

    def next_difference(self) -> bool:
        """Move the diff cursor to the next difference (False at the last one)."""
        return self.diff_pane.next_difference()

    def previous_difference(self) -> bool:
        return self.diff_pane.previous_difference()
