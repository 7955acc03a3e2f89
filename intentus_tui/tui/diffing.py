"""The Diff tab's keys: ``m`` marks A, ``d`` compares it with the selected execution, ``n``
and ``N`` step through the differences, ``f`` shows them full screen. A key that can do
nothing yet says why (nothing marked, nothing compared): a key that does nothing silently
looks broken.

The marked execution follows its file while the directory is watched: changed, it is read
again (in a worker) and what shows it (the header, a comparison in the Diff tab or on
screen, the next ``d``) shows what the file says now, as its list row does; removed, the
mark stays, said to be removed, and ``d`` refuses it until another is marked (or the file
comes back: an editor's save can remove and write it again). A comparison shown (the Diff
tab, one on screen) follows each side's file too, whether or not it is still selected:
changed, it is read again and compared as it reads now; removed, the comparison says so
instead of comparing against an empty side, and compares again when the file comes back."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from intentus_tui.core.fsio import file_look
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.comparing import ComparisonLauncher

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

    from intentus_tui.core.actions import ExecutionDetail, Operand
    from intentus_tui.core.model import ExecutionSummary
    from intentus_tui.tui.live.watcher import IndexFeeder
    from intentus_tui.tui.widgets.side_pane import SidePane

# The keys that act on a comparison shown: they wait for one (hidden from the footer until
# then), and say so when pressed before.
COMPARISON_KEYS = frozenset({"next_difference", "previous_difference", "full_comparison"})
# Keys acting on the selected execution, dimmed while none is (a filter lists none): each
# says so. (``D`` with none selected compares two Active Graph runs; ``d`` says it itself.)
SELECTION_KEYS = frozenset({"replay", "force_replay", "invalidate", "save_snapshot", "mark"})
# The keys said are the user's keymap's (``bound_key``): these are the defaults' words.
HOW_TO_COMPARE = "mark an execution with {mark} and press {diff} on another, or press {pick}"
# The same, short enough to share a toast's three rows with what else the key does.
HOW_TO_COMPARE_SHORT = "{mark} marks, {diff} compares (or {pick})"
NOTHING_COMPARED = "Nothing compared yet: {how}"


def how_to_compare(mark: str = "m", diff: str = "d", pick: str = "D") -> str:
    """How to make a comparison, with the keys that do it (the defaults unless given)."""
    return HOW_TO_COMPARE.format(mark=mark, diff=diff, pick=pick)


def nothing_compared(mark: str = "m", diff: str = "d", pick: str = "D") -> str:
    """What a comparison's key says with nothing compared yet."""
    return NOTHING_COMPARED.format(how=how_to_compare(mark, diff, pick))


# How often the file of a snapshot or baseline compared is looked at, while watching.
SNAPSHOT_LOOK_SECONDS = 0.5


class DiffKeys(ComparisonLauncher):
    """For ``IntentusApp``, which provides the selection (``detail``, ``marked``), the side
    pane and the comparison screen."""

    detail: ExecutionDetail | None
    marked: ExecutionDetail | None
    marked_removed = False  # the marked execution's file was removed since it was marked
    # Its name as last listed, and whether that is its file's (a copy): kept once removed.
    _marked_name: tuple[str, bool] | None = None
    # The files of the snapshots compared, as last looked at (``_look_at_snapshots``).
    _snapshot_looks: dict[Path, tuple[int, int, int] | None]
    diff_shown: bool
    _marking: str | None
    keymap: dict[str, str]  # binding id -> keys, as the user's keymap gives them
    feeder: IndexFeeder

    if TYPE_CHECKING:

        @property
        def side_pane(self) -> SidePane: ...

        def act_when_loaded(self, action: str) -> bool: ...

        def said_nothing_selected(self, action: str) -> bool: ...

        def _say_no_record(self, action: str, detail: ExecutionDetail) -> None: ...

        def _show_header(self) -> None: ...

        def _refresh_footer(self) -> None: ...

        def show_side_pane(self, tab: str | None = None) -> None: ...

        def short_name(self, detail: ExecutionDetail) -> str: ...

        def names_its_file(self, path: Path) -> bool: ...

        def key_of_path(self, path: Path) -> str: ...

        def read_detail(self, path: Path, *, record_removed: bool = False) -> ExecutionDetail: ...

        def reloads_when_changed(self, key: str) -> bool: ...

        @property
        def closing(self) -> bool: ...

    def set_marked(self, detail: ExecutionDetail) -> None:
        """``detail`` becomes A of the next diff (``m``; one without a record cannot)."""
        if detail.result.record is None:
            return
        self.marked = detail
        self.marked_removed = False
        self._marked_name = None
        self._show_header()
        self._refresh_footer()
        self.notify(
            f"Marked {self.short_name(detail)}: select another execution and press d",
            markup=False,
            timeout=3,
        )

    def is_marked(self, detail: ExecutionDetail | None) -> bool:
        """Whether ``detail`` is a read of the marked execution's file (either read may be
        the newer: the mark and the selection are read again apart)."""
        return detail is not None and self.marked is not None and detail.path == self.marked.path

    def marked_problem(self) -> str | None:
        """Why the marked execution cannot be A of ``d`` now (None: it can)."""
        marked = self.marked
        if marked is None:
            return None
        if self.marked_removed:
            return self._removed_note(marked)
        if marked.result.record is None:  # its file was rewritten into what is no record
            return (
                f"Marked execution {self.short_name(marked)} has no readable record now: "
                f"mark another with {self.bound_key('mark-for-diff')}"
            )
        return None

    def _removed_note(self, marked: ExecutionDetail) -> str:
        mark = self.bound_key("mark-for-diff")
        return f"Marked execution {self.marked_name()[0]} was removed: mark another with {mark}"

    def marked_name(self) -> tuple[str, bool]:
        """The marked execution's name as its list row gives it (its file's, for a copy)
        and whether it is its file's; once removed, as it was listed (unlisted, a copy
        would be named by the id it shares with the file left)."""
        marked = self.marked
        if marked is None:
            return ("", False)
        if not self.marked_removed or self._marked_name is None:
            self._marked_name = (self.short_name(marked), self.names_its_file(marked.path))
        return self._marked_name

    def marked_files_changed(
        self, changed: Iterable[ExecutionSummary], removed: Iterable[str]
    ) -> None:
        """Live changes to the list: the marked execution's file, changed or removed, is
        read again, and a removal is said (the header, a toast)."""
        marked = self.marked
        if marked is None:
            return
        key = self.key_of_path(marked.path)
        if any(summary.key == key for summary in changed):
            self.marked_removed = False  # there (again): what it says now is read
        elif key in removed and not self.marked_removed:
            self.marked_removed = True
            self._show_header()
            self._refresh_footer()
            self.notify(self._removed_note(marked), severity="warning", markup=False, timeout=6)
        else:
            return
        self._read_marked_again(marked.path)

    @work(thread=True, exclusive=True, group="marked-again", exit_on_error=False)
    def _read_marked_again(self, path: Path) -> None:
        detail = self.read_detail(path)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self.marked_read_again, detail)

    def marked_read_again(self, detail: ExecutionDetail) -> None:
        """A newer read of the marked execution's file: A of the next ``d``, and of every
        comparison showing it, is what it says now (removed, what is left to read: every
        comparison says it vanished)."""
        if self.closing or not self.is_marked(detail):
            return
        self._show_header()
        self._refresh_footer()
        if not self.marked_removed:  # removed: the comparisons said so (``files_removed``)
            self.marked = detail
            self.compare_again_with(detail)

    def compared_files_changed(
        self, changed: Iterable[ExecutionSummary], removed: Iterable[str]
    ) -> None:
        """Live changes to the list: a comparison shown whose side's file was removed says
        so; a side's file changed, or back, is read and compared again (the marked one is
        read again by ``marked_files_changed``, the selected one by its reload)."""
        sides = self._compared_sides()
        paths = {side.path for side in sides if side.kind == "record" and side.path is not None}
        if not paths:  # nothing compared: a live batch of many rows costs nothing here
            return
        gone, back = set(removed), {summary.key for summary in changed}
        marked = self.marked.path if self.marked is not None else None
        for path in paths:
            key = self.key_of_path(path)
            if key in gone and not path.exists():  # not a file elsewhere of the same name
                mark, diff, pick = self._compare_keys()
                hint = (
                    f"mark another with {mark}"
                    if path == marked
                    else f"select another, press {diff} or {pick}"
                )
                self._side_gone(path, hint)
            elif key in back and path != marked and self._not_read_elsewhere(key, path):
                self._read_side_again(path)

    def _compared_sides(self) -> list[Operand]:
        """The sides of the comparisons shown: the Diff tab's, those on screen."""
        from intentus_tui.tui.screens.compare import ComparisonScreen

        sides: list[Operand | None] = []
        if self.side_pane.ready and (request := self.side_pane.diff_pane.request) is not None:
            sides += [request.left, request.right]
        for screen in self.screen_stack:
            if isinstance(screen, ComparisonScreen):
                sides += [screen.a, screen.b]
        return [side for side in sides if side is not None]

    def follow_compared_snapshots(self) -> None:
        """While watching: the file of a snapshot or baseline compared (outside the watched
        records) is looked at now and then: changed, it is compared again as it reads now;
        removed, the comparison says so."""
        self._snapshot_looks = {}
        self.set_interval(SNAPSHOT_LOOK_SECONDS, self._look_at_snapshots)

    def _look_at_snapshots(self) -> None:
        if self.closing or not self.feeder.live:  # paused: looked at again once resumed
            return
        sides = {
            side.path: side
            for side in self._compared_sides()
            if side.kind == "snapshot" and side.path is not None
        }
        seen = self._snapshot_looks
        for path in [p for p in seen if p not in sides]:  # no longer compared
            del seen[path]
        for path, side in sides.items():
            label, look = side.label, file_look(path)
            if path not in seen:  # first seen: as it was just before it was read
                seen[path] = side.read_look if side.read_look is not None else look
            if look != seen[path]:
                seen[path] = look
                if look is None:
                    self._snapshot_removed(path)
                else:
                    self._read_snapshot_again(path, label)

    def _side_gone(self, path: Path, hint: str, gone: str = "was removed") -> None:
        """Every comparison shown (the Diff tab, the screens) of a side read from ``path``
        says what became of that file and compares nothing (``hint``: what to do)."""
        from intentus_tui.tui.screens.compare import ComparisonScreen

        if self.side_pane.ready:
            self.side_pane.diff_pane.side_removed(path, hint, gone)
        for screen in self.screen_stack:
            if isinstance(screen, ComparisonScreen):
                screen.side_removed(path, hint, gone)

    def _snapshot_removed(self, path: Path) -> None:
        self._side_gone(path, f"press {self.bound_key('diff-file')} to pick another")

    def _read_snapshot_again(self, path: Path, label: str) -> None:
        # One read at a time per file, the newest (as ``_read_side_again``).
        self.run_worker(
            partial(self._snapshot_read, path, label),
            group=f"snapshot-again:{path}",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _snapshot_read(self, path: Path, label: str) -> None:
        from intentus_tui.core.actions import CompareError, file_operand
        from intentus_tui.core.paths import sibling_wal_dir

        try:
            operand = file_operand(label, path, prefer="snapshot", wal_dir=sibling_wal_dir(path))
        except CompareError as exc:  # e.g. half written: the next change is read again
            if not get_current_worker().is_cancelled:
                self.call_from_thread(self._snapshot_unreadable, path, str(exc))
            return
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._snapshot_read_again, operand)

    def _snapshot_unreadable(self, path: Path, problem: str) -> None:
        """The file of a snapshot compared no longer reads (an edit left it no JSON, half
        written): every comparison of it says so and compares nothing, as for a removed
        file, rather than keep showing what it held; read again once it changes."""
        if self.closing:
            return
        # Why, in a toast: the comparison's two status rows keep what to do in sight.
        said = f"{path.name} cannot be read now: {problem}"
        self.notify(sanitize_line(said), severity="warning", markup=False, timeout=6)
        hint = f"press {self.bound_key('diff-file')} to pick another"
        self._side_gone(path, hint, gone="cannot be read now")

    def _snapshot_read_again(self, operand: Operand) -> None:
        from intentus_tui.tui.screens.compare import ComparisonScreen

        if self.closing:
            return
        if self.side_pane.ready:
            self.side_pane.diff_pane.renew_side(operand)
        for screen in self.screen_stack:
            if isinstance(screen, ComparisonScreen):
                screen.renew_side(operand)

    def _not_read_elsewhere(self, key: str, path: Path) -> bool:
        """A side's file changed or back that only this reads again: said removed, or left
        by the cursor (the selection's reload reads the one it shows)."""
        return self._said_removed(path) or not self.reloads_when_changed(key)

    def _said_removed(self, path: Path) -> bool:
        from intentus_tui.tui.screens.compare import ComparisonScreen

        screens = [s for s in self.screen_stack if isinstance(s, ComparisonScreen)]
        in_pane = self.side_pane.ready and path in self.side_pane.diff_pane.removed
        return in_pane or any(path in screen.removed for screen in screens)

    def _read_side_again(self, path: Path) -> None:
        # One read at a time per file, the newest: an older read that ends last would show
        # what the file no longer says.
        self.run_worker(
            partial(self._side_read, path),
            group=f"side-again:{path}",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _side_read(self, path: Path) -> None:
        detail = self.read_detail(path)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._side_read_again, detail)

    def _side_read_again(self, detail: ExecutionDetail) -> None:
        if not self.closing:
            self.compare_again_with(detail)

    def compare_again_with(self, detail: ExecutionDetail) -> None:
        """``detail`` is a newer read of its file: the Diff tab and any comparison on screen
        comparing a record read from that file compare it again."""
        from intentus_tui.tui.screens.compare import ComparisonScreen

        self.side_pane.compare_again_with(detail)
        for screen in self.screen_stack:
            if isinstance(screen, ComparisonScreen):
                screen.compare_again_with(detail)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Textual's, but a dimmed ``d``, ``n``, ``N`` or ``f`` with nothing compared, and the
        keys acting on the selected execution with none selected, still answer (Textual
        does not run an action ``check_action`` dims or hides)."""
        on_app = default_namespace is None or default_namespace is self
        if on_app and action == "diff" and self.check_action("diff", ()) is None:
            self._explain_no_diff()
            return True
        on_main = self.screen is self.screen_stack[0]
        if on_app and on_main and action in SELECTION_KEYS and self.said_nothing_selected(action):
            return True  # dimmed with none selected: pressed, it says why
        if on_app and on_main and action in COMPARISON_KEYS and not self.diff_shown:
            note = self._full_screen_note() if action == "full_comparison" else None
            # The longer note, of both keys, wants the time to read it.
            timeout = 4 if note is None else 6
            said = note or nothing_compared(*self._compare_keys())
            self.notify(said, severity="warning", markup=False, timeout=timeout)
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def _full_screen_note(self) -> str | None:
        """What the full-screen key says with nothing compared, when a timeline binds the
        same key to its next fallback (``f``, unless the keymap parts them): both what it
        does here and there, or a user who pressed it on the list for the fallbacks never
        learns where it does that. None: the key is the comparison's alone."""
        from textual.binding import Binding

        from intentus_tui.tui.presenters.timeline_keys import full_screen_elsewhere
        from intentus_tui.tui.widgets.execution_list import ExecutionList
        from intentus_tui.tui.widgets.timeline_view import EventLines

        def keys(binding_id: str, default: str) -> list[str]:
            return [k.strip() for k in self.keymap.get(binding_id, default).split(",")]

        bindings = [*self.BINDINGS, *EventLines.BINDINGS, *ExecutionList.BINDINGS]
        ids = {b.id: b.key for b in bindings if isinstance(b, Binding)}
        fallback = keys("timeline.next-fallback", ids["timeline.next-fallback"])
        shared = [k for k in keys("diff.full-screen", ids["diff.full-screen"]) if k in fallback]
        if not shared:
            return None
        on_list = isinstance(self.focused, ExecutionList)
        open_key = keys("list.open", ids["list.open"])[0] if on_list else None
        display = self.get_key_display(Binding(shared[0], ""))
        mark, diff, pick = self._compare_keys()
        short = HOW_TO_COMPARE_SHORT.format(mark=mark, diff=diff, pick=pick)
        return full_screen_elsewhere(display, short, open_key)

    def bound_key(self, binding_id: str) -> str:
        """The key the user's keymap binds to the app's ``binding_id`` (its first, as the
        footer shows it), else the default one."""
        from textual.binding import Binding

        default = next(
            b.key for b in self.BINDINGS if isinstance(b, Binding) and b.id == binding_id
        )
        key = self.keymap.get(binding_id, default).split(",")[0].strip()
        return self.get_key_display(Binding(key, ""))

    def _compare_keys(self) -> tuple[str, str, str]:
        """The keys of ``m``, ``d`` and ``D``, as the keymap binds them."""
        key = self.bound_key
        return key("mark-for-diff"), key("diff"), key("diff-file")

    def _explain_no_diff(self) -> None:
        if self.marked is not None and self.said_nothing_selected("diff"):
            return
        problem = self.marked_problem()
        if self.marked is None:
            mark, diff, _ = self._compare_keys()
            note = (
                f"Nothing marked: mark an execution with {mark} first, then press {diff} on another"
            )
        elif problem is not None:
            note = problem
        else:
            note = "This is the marked execution: select another one, then press d"
        self.notify(note, severity="warning", markup=False, timeout=3)

    async def action_diff(self) -> None:
        if self.said_nothing_selected("diff"):
            return
        if (self.marked is None and self._marking is None) or not self.act_when_loaded("diff"):
            return
        if self.marked is None or self.detail is None or self.is_marked(self.detail):
            return
        if (problem := self.marked_problem()) is not None:  # never what it held, silently
            self.notify(problem, severity="warning", markup=False, timeout=3)
            return
        marked, detail = self.marked, self.detail
        if detail.result.record is None:  # as ``m`` refuses it, and ``diff`` on the CLI
            self._say_no_record("diff", detail)
            return
        await self.side_pane.build()
        # The compact view, for when the comparison closes: restyling the panes for it is
        # left until the comparison is on screen.
        self.call_after_refresh(self.show_side_pane, "diff")
        self.side_pane.show_diff(marked, detail, self.side_roots(marked, detail))
        self.diff_shown = True
        self._refresh_footer()
        # Closed, the Diff tab is at the difference the full screen was left on.
        self.compare_executions(marked, detail, self.side_pane.diff_pane.follow_full_screen)

    def action_next_difference(self) -> None:
        if not self._nothing_to_step_to():
            self.side_pane.next_difference()

    def _nothing_to_step_to(self) -> bool:
        """An equal comparison: ``n``/``N`` say there is no difference (they did nothing);
        one whose side's file was removed: they say that."""
        if removed := self.side_pane.diff_pane.removed_notes:
            self.notify("\n".join(removed), severity="warning", markup=False, timeout=4)
            return True
        outcome = self.side_pane.diff_pane.outcome
        if outcome is None or outcome.error is not None or outcome.entries:
            return False
        comparison = outcome.comparison
        hidden = comparison.hidden if comparison is not None else 0
        said = "No difference to step to: A and B are equal"
        if hidden:
            said += f" ({hidden:,} hidden by ignore rules: f, then i, shows them)"
        elif comparison is not None and not comparison.equal:
            said = "No value differs path by path: they differ as the tab's summary says"
        self.notify(said, timeout=4)
        return True

    def action_full_comparison(self) -> None:
        self.side_pane.diff_pane.open_full_screen()

    def action_previous_difference(self) -> None:
        if not self._nothing_to_step_to():
            self.side_pane.previous_difference()
