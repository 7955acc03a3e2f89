"""``D``: compare the selected execution with something picked from a list (a base of
``IntentusApp``, which binds the action).

The picker (``screens.compare_picker``) lists the snapshots saved in this session first
("just saved"), then the saved snapshots, Verist baselines, record files and Active Graph
runs found under the root - under every root, each named by its root, when several are open
(``core.compare.targets``) - then the executions the index already holds. The choice is
read in a thread worker (a record as a record, a snapshot or baseline as one) and compared
through ``show_picked_comparison``: the one place a comparison of the selected execution with
another side is shown.

A run compares with another run only (``intentus-tui diff RUNS.db#A RUNS.db#B``), never with
the selected execution: one picked becomes A, and a second picker, of runs, picks B. Runs are
not executions of the list (they have no record and no verdict), so ``m`` and ``d`` never
see one: this is the debugger's way to two runs side by side.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from textual import work

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot, sibling_wal_dir
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.comparing import ComparisonLauncher
from intentus_tui.tui.presenters.execution_text import execution_label, short_label

if TYPE_CHECKING:
    # Imported where used: the debugger's first frame does not need the picker.
    from textual.timer import Timer

    from intentus_tui.core.actions import ExecutionDetail, Operand
    from intentus_tui.tui.idle_collector import IdleCollector
    from intentus_tui.tui.presenters.compare_candidates import (
        Candidate,
        CandidateKind,
        ExecutionLines,
    )
    from intentus_tui.tui.widgets.execution_list import ExecutionList
    from intentus_tui.tui.widgets.side_pane import SidePane


# One side of a picked comparison: its label and what is compared (a record with its verdict).
PickedSide = tuple[str, "Operand"]
# What choosing a run in ``D``'s picker does (it does not compare it with the selected one).
RUN_HINT: dict[CandidateKind, str] = {"run": "enter makes one A, then pick the run B"}
RUNS_LOOK_SECONDS = 2.0  # how often an empty, watched list looks for a run store


class ComparePicking(ComparisonLauncher):
    """``D`` and what it needs: the snapshots saved in this session, the picker, the
    comparison. ``IntentusApp`` provides ``root``, ``detail`` and the panes."""

    root: RecordRoot
    detail: ExecutionDetail | None
    detail_key: str | None
    diff_shown: bool

    if TYPE_CHECKING:

        @property
        def execution_list(self) -> ExecutionList: ...

        @property
        def side_pane(self) -> SidePane: ...

        def all_summaries(self) -> Iterable[ExecutionSummary]: ...

        def show_side_pane(self, tab: str | None = None) -> None: ...

        def record_to_act_on(self, action: str) -> ExecutionDetail | None: ...

        def root_of(self, path: Path) -> RecordRoot: ...

        def path_of_key(self, key: str) -> Path: ...

        def key_of_path(self, path: Path) -> str: ...

        def _refresh_footer(self) -> None: ...

        def yield_to_keys(self) -> None: ...

        def bound_key(self, binding_id: str) -> str: ...

        def _update_empty_message(self) -> None: ...

        idle_collector: IdleCollector | None

    _saved_snapshots: list[Path] | None = None
    runs_here = False  # ``D`` would offer Active Graph runs (looked for when none is listed)
    _runs_timer: Timer | None = None
    _execution_lines: ExecutionLines | None = None

    @property
    def saved_snapshots(self) -> list[Path]:
        """The snapshots ``s`` wrote in this session, oldest first."""
        if self._saved_snapshots is None:
            self._saved_snapshots = []
        return self._saved_snapshots

    def snapshot_saved(self, path: Path) -> None:
        """``s`` wrote ``path``: the picker lists it first from now on, and a toast says so."""
        if path in self.saved_snapshots:
            self.saved_snapshots.remove(path)
        self.saved_snapshots.append(path)
        self.notify(
            sanitize_line(f"Snapshot saved: {path.name} (D lists it first) in {path.parent}"),
            markup=False,
            timeout=8,
        )

    @work(thread=True, exclusive=True, group="runs-here", exit_on_error=False)
    def look_for_runs_here(self) -> None:
        """Whether ``D`` would offer runs, for a directory with no record to list: its
        empty list says how to reach them."""
        from intentus_tui.core.compare.targets import find_runs

        found = bool(find_runs(self.compare_file_roots()))
        self.call_from_thread(self._runs_here_found, found)

    def look_for_runs_while_empty(self) -> None:
        """Look again every few seconds while the list stays empty: a run store written
        after the scan is said too (finding none costs a few directory listings)."""
        if self._runs_timer is None:
            self._runs_timer = self.set_interval(RUNS_LOOK_SECONDS, self._look_again_for_runs)

    def _look_again_for_runs(self) -> None:
        if not self.execution_list.model.summaries:
            self.look_for_runs_here()

    def _runs_here_found(self, found: bool) -> None:
        if found != self.runs_here:
            self.runs_here = found
            self._update_empty_message()

    def runs_here_note(self) -> str:
        """The empty list's line that says ``D`` compares the runs found (``""``: none)."""
        if not self.runs_here:
            return ""
        return f"Active Graph runs are here: press {self.bound_key('diff-file')} to compare two."

    def action_diff_file(self) -> None:
        """Pick what to compare the selected execution with (``D``)."""
        from intentus_tui.core.compare.targets import find_compare_files_in_roots, find_runs
        from intentus_tui.tui.presenters.compare_candidates import (
            ExecutionLines,
            build_candidates,
            id_width,
            likeliest_first,
            root_width,
        )
        from intentus_tui.tui.presenters.list_rows import copies_width
        from intentus_tui.tui.screens.compare_picker import ComparePicker

        if self.execution_list.selected_key is None:  # no execution (none listed): runs only
            places = self.compare_file_roots()
            self._pick_run(None, places, root_width(label for label, _ in places))
            return
        detail = self.record_to_act_on("diff_file")
        if detail is None:
            return
        model = self.execution_list.model
        summaries = list(self.all_summaries())
        saved = list(self.saved_snapshots)
        exclude = self.detail_key
        copies = model.shared_ids
        side_a = self.with_root(self.long_name(detail), detail.path)
        if self._execution_lines is None:
            self._execution_lines = ExecutionLines()
        lines = self._execution_lines
        # With several roots open, each line names its root: files are looked for under
        # every root, executions come from all of them.
        places = self.compare_file_roots()
        roots = root_width(label for label, _ in places)
        # One id column for every line, files and executions: as wide as the list's, or a
        # file's longer id (up to a limit; a longer id is cut with an ellipsis).
        # Copies name their files there, as their rows do: wide enough for those names.
        ids = [max(self.execution_list.id_width, copies_width(model.copies()))]

        record = detail.result.record
        its_id = record.execution_id if record is not None else None
        its_files: set[Path] = set()  # its snapshots and baselines: the likeliest B

        def files() -> list[Candidate]:  # in the picker's thread worker, then executions()
            targets = find_compare_files_in_roots(places) + find_runs(places)
            ids[0] = id_width(targets, ids[0])
            its_files.update(
                t.path for t in targets if t.kind != "run" and its_id and t.execution_id == its_id
            )
            return build_candidates(targets, saved, roots=roots, ids=ids[0])

        pause = self.yield_to_keys

        def executions() -> list[Candidate]:
            return lines.candidates(
                summaries,
                model.kind,
                exclude=exclude,
                pause=pause,
                roots=roots,
                ids=ids[0],
                copies=copies,
            )

        # While the picker is open, its candidates are left out of idle full passes.
        collector = self.idle_collector
        if collector is not None:
            collector.hold()

        def chosen(candidate: Candidate | None) -> None:
            if collector is not None:
                collector.release()
            if candidate is not None and candidate.kind == "run":
                self._check_run_a(candidate, places, roots)
            elif candidate is not None:  # the execution asked about, even if the selection moved
                self._compare_with(detail, side_a, candidate)

        title = f"Compare {side_a} with…"
        rank = likeliest_first(its_files)
        picker = ComparePicker(title, files, executions, pause, hints=RUN_HINT, rank=rank)
        self.push_screen(picker, chosen)

    def _pick_run(
        self, first: Candidate | None, places: list[tuple[str, RecordRoot]], roots: int
    ) -> None:
        """``first``, a run, is A: B is picked among the other runs (or typed). None: A is
        picked first, then B."""
        from intentus_tui.core.compare.targets import find_runs
        from intentus_tui.tui.presenters.compare_candidates import candidate_run_id, run_candidate
        from intentus_tui.tui.screens.compare_picker import ComparePicker

        def runs() -> list[Candidate]:
            found = [run_candidate(target, roots=roots) for target in find_runs(places)]
            if first is None:
                return found
            # A itself left out, found or typed (its file named some other way).
            a = (_real(first.path), candidate_run_id(first))
            return [c for c in found if (_real(c.path), candidate_run_id(c)) != a]

        def chosen(candidate: Candidate | None) -> None:
            if candidate is None:
                return
            if candidate.kind != "run":
                run = "A run" if first is None else f"{first.label} is an Active Graph run: it"
                self._cannot_compare(
                    f"{run} compares with another run only (pick one, or type RUNS.db#RUN_ID)"
                )
            elif first is None:
                self._check_run_a(candidate, places, roots)
            else:
                self._compare_runs(first, candidate)

        title = (
            "Nothing selected: compare two Active Graph runs, A first…"
            if first is None
            else f"Compare run {first.label} with…"
        )
        picker = ComparePicker(
            title,
            runs,
            offers_executions=False,
            hints=RUN_HINT if first is None else None,
            looking="Looking for Active Graph runs…",
            none_found="no Active Graph runs found beside the records: type RUNS.db#RUN_ID",
        )
        self.push_screen(picker, chosen)

    @work(thread=True, exclusive=True, group="diff-file", exit_on_error=False)
    def _check_run_a(
        self, first: Candidate, places: list[tuple[str, RecordRoot]], roots: int
    ) -> None:
        """``first``, a run picked as A, read as ``intentus-tui diff`` reads it before B is
        asked for: a wrong id (``notes.db#nope``) is said now, in diff's words (it was said
        only once a B was picked)."""
        from intentus_tui.core.actions import CompareError

        try:
            _run_side(first)
        except CompareError as exc:
            self.call_from_thread(self._cannot_compare, str(exc))
            return
        self.call_from_thread(self._pick_run, first, places, roots)

    @work(thread=True, exclusive=True, group="diff-file", exit_on_error=False)
    def _compare_runs(self, a: Candidate, b: Candidate) -> None:
        """Two runs, as ``intentus-tui diff RUNS.db#A RUNS.db#B`` reads and compares them."""
        from intentus_tui.core.actions import CompareError

        try:
            first, second = _run_side(a), _run_side(b)
        except CompareError as exc:
            self.call_from_thread(self._cannot_compare, str(exc))
            return
        self.call_from_thread(self.show_picked_comparison, first, second)

    def long_name(self, detail: ExecutionDetail) -> str:
        """The execution's id; its file's name where the id does not tell the file apart
        (a copy, a renamed file: the list's row names its file too): a comparison's side,
        what a toast says was written."""
        if self.names_its_file(detail.path):
            return sanitize_line(detail.path.name)
        return execution_label(detail)

    def short_name(self, detail: ExecutionDetail) -> str:
        """The execution as the list's row names it in short: its file's name for a copy
        (the header's mark, the toast of ``m``), else its short id."""
        if self.names_its_file(detail.path):
            return sanitize_line(detail.path.name)
        return short_label(detail)

    def names_its_file(self, path: Path) -> bool:
        """Whether the list's row of the file ``path`` names its file, not its id: another
        file holds its id (a copy), or it is not named after it. The Diff tab and the side
        pane's border name it so too."""
        model = self.execution_list.model
        if not model.shared_ids:  # usually: no copies, no question asked
            return False
        listed = model.summaries.get(self.key_of_path(path))
        return listed is not None and listed in model.shared_ids  # the list's own summary

    def compare_file_roots(self) -> list[tuple[str, RecordRoot]]:
        """Where ``D`` looks for snapshots, baselines and record files: every working root
        with its label when several are open; the one root, unlabelled, otherwise."""
        roots = self.roots
        if roots is None or not roots.several:
            return [("", self.root)]
        return [(e.label, e.root) for e in roots.working if e.root is not None]

    @work(thread=True, exclusive=True, group="diff-file", exit_on_error=False)
    def _compare_with(self, detail: ExecutionDetail, side_a: str, candidate: Candidate) -> None:
        from intentus_tui.core.actions import CompareError, detail_operand, file_operand

        # An execution's key names its root too when several are open (``LABEL/FILE``).
        path = candidate.path if candidate.path is not None else self.path_of_key(candidate.key)
        # A record is read as a record wherever it is; a file meant as a snapshot says what
        # is wrong with it as a snapshot when it is neither.
        prefer: Literal["record", "snapshot"] = (
            "record" if candidate.kind in ("execution", "record") else "snapshot"
        )
        # A record's verdict is made as the execution's detail makes it, with its log: an
        # execution's in its root's WAL directory; a file found or typed, beside it (as
        # ``intentus-tui diff PATH`` finds it).
        wal_dir = (
            self.root_of(path).wal_dir if candidate.kind == "execution" else sibling_wal_dir(path)
        )
        try:
            right = file_operand(candidate.label, path, prefer=prefer, wal_dir=wal_dir)
        except CompareError as exc:
            self.call_from_thread(self._cannot_compare, str(exc))
            return
        left = detail_operand(detail)
        self.call_from_thread(
            self.show_picked_comparison,
            (side_a, left),
            (candidate.label, right),
        )

    def _cannot_compare(self, problem: str) -> None:
        self.notify(sanitize_line(f"Cannot diff: {problem}"), severity="error", markup=False)

    def show_picked_comparison(self, a: PickedSide, b: PickedSide) -> None:
        """A against B full screen, and in the Diff tab once it closes: the one place."""
        self.call_later(self._show_picked_comparison, a, b)

    async def _show_picked_comparison(self, a: PickedSide, b: PickedSide) -> None:
        # The pane prefixes the labels with "A:"/"B:" itself.
        await self.side_pane.build()
        self.show_side_pane("diff")
        self.side_pane.show_comparison(a[0], a[1], b[0], b[1])
        self.diff_shown = True
        self._refresh_footer()
        self.open_comparison(a[1], b[1])


def _run_side(candidate: Candidate) -> PickedSide:
    """A run picked, read as ``intentus-tui diff RUNS.db#RUN_ID`` reads it (``CompareError``:
    diff's one line)."""
    from intentus_tui.core.actions import run_operand
    from intentus_tui.tui.presenters.compare_candidates import candidate_run_id

    assert candidate.path is not None  # a run's candidate names its database
    run_id = candidate_run_id(candidate)
    return candidate.label, run_operand(candidate.label, candidate.path, run_id)


def _real(path: Path | None) -> Path | None:
    try:
        return path.resolve() if path is not None else None
    except (OSError, RuntimeError):
        return path
