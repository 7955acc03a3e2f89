"""The Diff tab: two executions, or an execution and a snapshot/baseline, path by path.

What is compared, and how, is the core's one "A vs B" use case (``actions.compare_view``):
two records section by section (header, envelope, routerDecision, events aligned event by
event, finalResponse, with a summary and the first divergence), a snapshot or baseline by
Verist's three-part comparison (input, output, commands; and the record header when both
sides have one), two Active Graph runs by their
lineage (fork points, shared prefix) and what they built (objects and relations shared, only
in A, only in B, differing) -- the same differences ``intentus-tui diff`` prints, under the
same ignore rules. It runs in a thread worker; a newer request supersedes an older one. For
two executions a section selector narrows the comparison to one raw section. This is the
compact view; ``f`` opens the full-screen comparison (``screens.compare``).

Under the title, each record's verdict (the one its operand carries from the core, as its
list row shows it) and, for a side whose evidence fails its integrity check, a warning: its
differences come from that evidence. A side whose file is removed while it is shown is
said to be (``side_removed``), never compared as an empty record, until the file comes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Select, Static
from textual.worker import Worker, get_current_worker

from intentus_tui.core.actions import (
    MISSING,
    UNTRUSTED_EVIDENCE,
    VIEW_ALIGNED,
    VIEW_WHAT_HAPPENED,
    WHOLE_RECORD,
    Comparison,
    DiffEntry,
    ExecutionDetail,
    ForkComparison,
    Operand,
    RecordComparison,
    SnapshotSummary,
    StructuralDiff,
    compare_view,
    detail_operand,
    from_untrusted,
)
from intentus_tui.tui.presenters.compare_text import (
    MIN_TITLE_NAME,
    NO_VALUE_HERE,
    changed_mark,
    panel_texts,
    side_short_name,
    side_verdict,
    title_name,
    untrusted_warnings,
)
from intentus_tui.tui.presenters.execution_text import execution_label
from intentus_tui.tui.widgets.diff_view import DiffView, entry_paths
from intentus_tui.tui.widgets.pane_text import (
    DIM_STYLE,
    OK_STYLE,
    PROBLEM_STYLE,
    WARNING_STYLE,
    badge,
    compact_value,
    safe,
)
from intentus_tui.tui.widgets.parts_text import PartsText, separated_rows

COMPARE = VIEW_WHAT_HAPPENED
COMPARE_ALIGNED = VIEW_ALIGNED
WHOLE = WHOLE_RECORD
SECTIONS: tuple[tuple[str, str], ...] = (
    ("What happened", COMPARE),
    ("What happened, aligned", COMPARE_ALIGNED),
    ("Whole record (raw)", WHOLE),
    ("header", "header"),
    ("envelope", "envelope"),
    ("routerDecision", "routerDecision"),
    ("events", "events"),
    ("finalResponse", "finalResponse"),
)
CURRENT_VALUE_CHARS = 1500
CURRENT_VALUE_REACH = 4  # how far past that two values are read, to find where they differ
CURRENT_LINES = 6  # A's and B's lines in #diff-current (8 high: its border, the path)


@dataclass(frozen=True)
class DiffRequest:
    """What to compare; kept so a section change can recompute.

    Two operands (records, snapshots) go through the core's comparison; two plain values
    (``left_value``/``right_value``) are diffed as they are.
    """

    left_label: str
    right_label: str
    left: Operand | None = None
    right: Operand | None = None
    left_value: Any = MISSING
    right_value: Any = MISSING
    # The record files of sides named by their file: another file holds their id (a copy).
    files: frozenset[Path] = frozenset()

    @property
    def is_records(self) -> bool:
        return (
            self.left is not None
            and self.right is not None
            and self.left.kind == self.right.kind == "record"
        )


@dataclass(frozen=True)
class DiffOutcome:
    request: DiffRequest
    section: str
    entries: tuple[DiffEntry, ...]
    paths: list[str]
    comparison: Comparison | None = None
    error: str | None = None


def compute_diff(request: DiffRequest, section: str) -> DiffOutcome:
    """Run the comparison asked for. Never raises: a failure is reported in the outcome."""
    try:
        comparison = compare_view(
            section,
            request.left,
            request.right,
            a_value=request.left_value,
            b_value=request.right_value,
        )
    except Exception as exc:
        return DiffOutcome(request, section, (), [], error=f"{type(exc).__name__}: {exc}")
    entries = comparison.entries
    paths = entry_paths(entries, runs=comparison.compared == "runs")
    return DiffOutcome(request, section, entries, paths, comparison)


def _same(flag: bool | None) -> tuple[str, str]:
    if flag is None:
        return ("? unknown", DIM_STYLE)
    return ("✓ same", OK_STYLE) if flag else ("✗ differs", PROBLEM_STYLE)


ANSWER_GAP = "   "  # between two answers ("intent ✓ same   agents ✓ same")


def answers_line(answers: Sequence[tuple[str, tuple[str, str]]], width: int | None) -> Content:
    """Answers (``("recorded hash", ("✓ same", style))``) on as few rows of ``width`` cells
    as hold them, each whole: a wrap inside one ("response" / "✗ differs") read as two."""
    rows: list[list[Content]] = [[]]
    used = 0
    for label, answer in answers:
        part = Content.assemble((f"{label} ", DIM_STYLE), answer)
        gap = len(ANSWER_GAP) if rows[-1] else 0
        if rows[-1] and width is not None and used + gap + part.cell_length > width:
            rows.append([])
            used, gap = 0, 0
        rows[-1].append(part)
        used += gap + part.cell_length
    return Content("\n").join(Content(ANSWER_GAP).join(row) for row in rows)


def snapshot_summary(
    summary: SnapshotSummary, notes: Sequence[str], width: int | None = None
) -> Content:
    """Verist's three questions: same input? same output? same commands? And, when both
    sides are IntentusNet records or their snapshots, the same record header?"""
    commands = (
        ("n/a (no commands)", DIM_STYLE)
        if summary.same_commands is None
        else _same(summary.same_commands)
    )
    answers = [
        ("input", _same(summary.same_input)),
        ("output", _same(summary.same_output)),
        ("commands", commands),
    ]
    if summary.same_header is not None:
        answers += [
            ("header", _same(summary.same_header)),
            # As stored: the verdicts say if it holds.
            ("recorded hash", _same(summary.same_envelope_hash)),
        ]
    lines = [answers_line(answers, width)]
    lines.extend(Content.styled(safe(note), DIM_STYLE) for note in notes)
    return Content("\n").join(lines)


def summary_of(comparison: Comparison | None, width: int | None = None) -> Content | str:
    """The comparison's answers, each kept whole on rows ``width`` cells wide."""
    if comparison is None:
        return ""
    if comparison.records is not None:
        return comparison_summary(comparison.records, width)
    if comparison.snapshots is not None:
        return snapshot_summary(comparison.snapshots, comparison.notes, width)
    if comparison.runs is not None:
        return run_summary(comparison)
    return ""


RUN_ITEMS_SHOWN = 6  # divergent objects/relations listed under their counts
RUN_VALUES_NOTE = (
    "values: the events paired by position, as `diff`; f pairs them on type and actor, as "
    "`diff --aligned`"
)


def _lineage_lines(fork: ForkComparison) -> list[Content]:
    lines: list[Content] = []
    relation = fork.relation
    if relation is not None:
        lines.append(Content.assemble(("lineage ", DIM_STYLE), safe(relation.describe())))
    intact = (
        ("", "")
        if fork.prefix_intact
        else ("   the inherited prefix differs between the runs", PROBLEM_STYLE)
    )
    point = "?" if fork.fork_point_index is None else str(fork.fork_point_index + 1)
    lines.append(
        Content.assemble(
            ("shared prefix ", DIM_STYLE),
            (f"{fork.shared_prefix_len} events", "bold"),
            (f"   inherited {point}", DIM_STYLE),
            intact,
        )
    )
    return lines


def _item_counts(title: str, counts: Mapping[str, int]) -> Content:
    return Content.assemble(
        (f"{title} ", DIM_STYLE),
        (f"{counts['shared']} shared", OK_STYLE),
        ("  ", ""),
        (f"{counts['only_a']} only A", "$text-error"),
        ("  ", ""),
        (f"{counts['only_b']} only B", "$text-success"),
        ("  ", ""),
        (f"{counts['differs']} differ", WARNING_STYLE),
    )


def _structure_lines(structure: StructuralDiff) -> list[Content]:
    lines = [
        Content.assemble(
            ("events (as activegraph diff) ", DIM_STYLE),
            f"{structure.shared_events} shared  {structure.a_only_events} only A  "
            f"{structure.b_only_events} only B",
        )
    ]
    for title, counts, items in (
        ("objects", structure.object_counts, structure.divergent_objects),
        ("relations", structure.relation_counts, structure.divergent_relations),
    ):
        lines.append(_item_counts(title, counts))
        lines.extend(
            Content.styled(f"  {safe(item.summary())}", DIM_STYLE)
            for item in items[:RUN_ITEMS_SHOWN]
        )
        if len(items) > RUN_ITEMS_SHOWN:
            lines.append(Content.styled(f"  … {len(items) - RUN_ITEMS_SHOWN} more", DIM_STYLE))
    return lines


def run_summary(comparison: Comparison) -> Content:
    """Two Active Graph runs: lineage, shared prefix, and what each built."""
    lines: list[Content] = []
    runs = comparison.runs
    if runs is not None:
        lines.append(
            Content.assemble(
                ("events ", DIM_STYLE),
                f"{runs.events_a} / {runs.events_b}",
                ("   event types ", DIM_STYLE),
                _same(runs.same_types),
            )
        )
    # The first aligned event that differs: the comparison screen's first differing row.
    divergence = comparison.divergence
    lines.append(_divergence_line(None if divergence is None else divergence.describe()))
    # The values below pair the runs' events by position, as ``diff`` does; the full
    # screen pairs them as ``--aligned`` does, and so counts otherwise: said, not a surprise.
    lines.append(Content.styled(RUN_VALUES_NOTE, DIM_STYLE))
    if comparison.fork is not None:
        lines.extend(_lineage_lines(comparison.fork))
    if comparison.structure is not None:
        lines.extend(_structure_lines(comparison.structure))
    lines.extend(Content.styled(safe(note), DIM_STYLE) for note in comparison.notes)
    return Content("\n").join(lines)


def comparison_summary(comparison: RecordComparison, width: int | None = None) -> Content:
    """Same intent? Same agents? Same response? Same envelope hash? Where do events part?"""
    summary = comparison.summary

    def path_text(path: tuple[str, ...]) -> str:
        return safe(" → ".join(path) or "(no attempts)")

    answers = [
        ("intent", _same(summary.same_intent)),
        ("agents", _same(summary.same_agent_path)),
        ("response", _same(summary.same_response)),
        # The header's, as stored: the verdicts say if it holds.
        ("recorded hash", _same(summary.same_envelope_hash)),
    ]
    lines = [answers_line(answers, width)]
    if not summary.same_agent_path:
        # A line each: side by side, a narrow pane wrapped B's chain back under A's.
        lines.append(Content.assemble(("A ", "bold $text-error"), path_text(summary.agent_path_a)))
        lines.append(
            Content.assemble(("B ", "bold $text-success"), path_text(summary.agent_path_b))
        )
    divergence = comparison.first_divergence
    lines.append(_divergence_line(None if divergence is None else divergence.describe()))
    return Content("\n").join(lines)


def _divergence_line(described: str | None) -> Content:
    """Where the event streams first part (``Divergence.describe``, None: they agree), as
    ``intentus-tui diff`` and the comparison screen say it (two records, two runs)."""
    if described is None:  # `diff`'s words (this said "events: the streams agree")
        return Content.assemble(("first divergence: ", DIM_STYLE), ("none", OK_STYLE))
    return Content.assemble(("first divergence: ", DIM_STYLE), (safe(described), WARNING_STYLE))


def _with_file(label: str, operand: Operand | None) -> str:
    path = operand.path if operand is not None else None
    return label if path is None else f"{label} ({path.name})"


def _side_files(request: DiffRequest) -> set[Path]:
    """The files the sides were read from (records, snapshots, baselines; not runs)."""
    return {
        side.path
        for side in (request.left, request.right)
        if side is not None and side.path is not None and _from_file(side, side.path)
    }


def _from_file(side: Operand, path: Path) -> bool:
    """Whether ``side`` is what the file ``path`` held: a record, snapshot or baseline."""
    return side.kind in ("record", "snapshot") and side.path == path


def _by_file(operand: Operand | None, request: DiffRequest) -> bool:
    return operand is not None and operand.path is not None and operand.path in request.files


def _verdict_lines(request: DiffRequest, width: int) -> list[Content]:
    """Each record's verdict, as its list row shows it (the one its operand carries), in
    rows of ``width`` broken between its parts only (at 56-80 columns "✗ no" ended a row and
    "(untrusted)" began the next), and a warning for a side whose evidence fails its
    integrity check; nothing for a snapshot, baseline or run."""
    lines: list[Content] = []
    for side, style, operand in (
        ("A ", "bold $text-error", request.left),
        ("B ", "bold $text-success", request.right),
    ):
        verdict = side_verdict(operand)
        if verdict is not None:
            shown = PROBLEM_STYLE if operand is not None and operand.untrusted else "not bold"
            first, *rest = verdict.split(" · ")
            parts = [Content.assemble((side, style), (first, shown))]
            parts += [Content.styled(part, shown) for part in rest]
            if width <= 0:  # not laid out yet: set again on resize
                lines.append(Content.assemble((side, style), (verdict, shown)))
                continue
            marks = [Content.styled(" ·", shown)] * len(parts)
            lines += separated_rows(parts, width, marks, ends=False)
    lines.extend(
        Content.styled(text, PROBLEM_STYLE)
        for text in untrusted_warnings(request.left, request.right)
    )
    return lines


def _mark(operand: Operand | None) -> tuple[str, str]:
    mark = changed_mark(operand)
    return (f" · {mark}", WARNING_STYLE) if mark else ("", "")


def _load_warnings(request: DiffRequest) -> list[Content]:
    lines = []
    for side, operand in (("A", request.left), ("B", request.right)):
        # A changed snapshot's note is its title's mark (``changed_mark``), as full screen.
        if operand is not None and operand.note and not changed_mark(operand):
            text = f"{side}: {safe(operand.note)}"
            lines.append(Content.assemble((text, WARNING_STYLE)))
    return lines


# The selector (30 columns) and a status line beside it ("35 changed values  +15 -7 ~13   at
# 1/35", 39 columns) side by side: narrower, the status goes under the selector.
_BESIDE_WIDTH = 30 + 1 + 39 + 2


class DiffPane(Vertical):
    """Title, section selector and status above the diff; the current difference below it.
    ``open_full_screen`` (the app's ``f``) opens the same comparison full screen."""

    DEFAULT_CSS = """
    DiffPane { padding: 0 1; overflow-y: auto; scrollbar-size-vertical: 1; }
    DiffPane > #diff-title { text-style: bold; }
    DiffPane > #diff-summary { height: auto; }
    DiffPane > #diff-bar { height: auto; }
    DiffPane > #diff-bar > #diff-section { width: 30; }
    DiffPane > #diff-bar > #diff-status { width: 1fr; padding: 1 0 0 1; }
    DiffPane.-no-sections > #diff-bar > #diff-section { display: none; }
    DiffPane.-no-sections > #diff-bar > #diff-status { padding: 0; }
    DiffPane.-narrow > #diff-bar { layout: vertical; }
    DiffPane.-narrow > #diff-bar > #diff-status { padding: 0; }
    DiffPane > DiffView { height: 1fr; min-height: 4; }
    DiffPane > #diff-current { height: auto; max-height: 8; border-top: solid $panel; }
    DiffPane.-empty > DiffView, DiffPane.-empty > #diff-current, DiffPane.-empty > #diff-bar,
    DiffPane.-empty > #diff-summary {
        display: none;
    }
    DiffPane.-removed > DiffView, DiffPane.-removed > #diff-current,
    DiffPane.-removed > #diff-bar, DiffPane.-removed > #diff-summary {
        display: none;
    }
    """

    class Finished(Message):
        def __init__(self, token: int, outcome: DiffOutcome) -> None:
            super().__init__()
            self.token = token
            self.outcome = outcome

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self.request: DiffRequest | None = None
        self.outcome: DiffOutcome | None = None
        self._token = 0
        # The path the full screen closed on before the comparison here was made.
        self._follow_at: tuple[object, ...] | None = None
        # The selected execution (its file, its short id): the comparison, kept while the
        # cursor moves, says when it is not of that one.
        self._selected: tuple[Path, str] | None = None
        # The files of sides removed (or unreadable) while shown, each with what is said:
        # ``was removed: nothing to compare; HINT``.
        self.removed: dict[Path, str] = {}

    def compose(self) -> ComposeResult:
        yield Static(self._empty_text(), id="diff-title")
        yield Static("", id="diff-summary")
        with Horizontal(id="diff-bar"):
            yield Select(SECTIONS, value=COMPARE, allow_blank=False, id="diff-section")
            yield PartsText("", id="diff-status")
        yield DiffView(id="diff-view")
        yield Static("", id="diff-current")

    def on_resize(self, event: events.Resize) -> None:
        # Too narrow for the counts beside the selector (an 80-column screen's side pane):
        # they go under it, on lines of their own, rather than wrap a word at a time.
        self.set_class(event.size.width < _BESIDE_WIDTH, "-narrow")
        self._fit_text()

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        self._fit_text()  # a pane too short for its text scrolls: its scrollbar takes a cell

    def _fit_text(self) -> None:
        self._show_summary()
        if self.request is not None:  # its sides' names cut to the new width
            self._set_title(self.request)

    def _show_summary(self) -> None:
        comparison = self.outcome.comparison if self.outcome is not None else None
        width = self.scrollable_content_region.width or None  # not laid out yet: one row
        self.query_one("#diff-summary", Static).update(summary_of(comparison, width))

    @staticmethod
    def _empty_text() -> Content:
        return Content.assemble(
            ("No comparison yet.", "bold"),
            (
                "\nMark an execution with m, select another and press d; or press D to "
                "compare the selected one with a snapshot, a baseline or any file.",
                DIM_STYLE,
            ),
        )

    @property
    def view(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def section(self) -> str:
        value = self.query_one("#diff-section", Select).value
        return value if isinstance(value, str) else COMPARE

    # ------------------------------------------------------------------ the selection

    def select(self, path: Path | None, short_id: str | None) -> None:
        """The execution selected in the list (its record file and short id; None while it
        loads: what the tab says stays as it was)."""
        if path is None or short_id is None:
            return
        self._selected = (path, short_id)
        if self.request is not None:
            self._set_title(self.request)

    @property
    def elsewhere(self) -> bool:
        """The comparison held is not of the selected execution (one made before the cursor
        moved, kept: a marked pair ``m``/``d`` is worth keeping while browsing)."""
        request, selected = self.request, self._selected
        if request is None or selected is None:
            return False
        sides = [side for side in (request.left, request.right) if side is not None]
        return bool(sides) and all(side.path != selected[0] for side in sides)

    def sides_name(self) -> str | None:
        """The comparison held in a few characters, ``46c1d247 vs snapshot`` (None: none)."""
        request = self.request
        if request is None:
            return None
        a = side_short_name(request.left, request.left_label, _by_file(request.left, request))
        b = side_short_name(request.right, request.right_label, _by_file(request.right, request))
        return f"{a} vs {b}"

    # ------------------------------------------------------------------ requests

    def show_diff(
        self,
        left: ExecutionDetail,
        right: ExecutionDetail,
        roots: tuple[str | None, str | None] = (None, None),
        files: frozenset[Path] = frozenset(),
    ) -> Worker[DiffOutcome]:
        """Two executions (their records; one without a record compares as nothing), each
        named after its root's label when ``roots`` gives one (``beta:681f325e-…``); one
        whose file is in ``files`` (another file holds its id) by its file's name
        (``beta:copy.json``), as its list row names it."""
        labels = [
            (f"{root}:" if root else "")
            + (safe(detail.path.name) if detail.path in files else execution_label(detail))
            for root, detail in zip(roots, (left, right), strict=True)
        ]
        return self.show_comparison(
            labels[0], detail_operand(left), labels[1], detail_operand(right), files
        )

    def show_comparison(
        self,
        left_label: str,
        left: Operand | None,
        right_label: str,
        right: Operand | None,
        files: frozenset[Path] = frozenset(),
    ) -> Worker[DiffOutcome]:
        """Two operands (records, snapshots, baselines), as ``intentus-tui diff`` compares them;
        ``files``: the record files of sides to name by their file (the border too)."""
        if left_label == right_label:  # copies of one record: their file names tell them apart
            left_label, right_label = _with_file(left_label, left), _with_file(right_label, right)
        request = DiffRequest(safe(left_label), safe(right_label), left, right, files=files)
        self.set_class(not request.is_records, "-no-sections")
        self.removed = {}
        self.scroll_home(animate=False)  # a new comparison shows from its titles
        return self._start(request)

    def compare_again_with(self, detail: ExecutionDetail) -> None:
        """``detail`` is a newer read of a file that changed: a record side read from it is
        compared again (invalidated, rewritten), never left showing it, or its verdict, as
        it was."""
        self.renew_side(detail_operand(detail))

    def renew_side(self, operand: Operand) -> None:
        """``operand`` is a newer read of a side's file (a record, snapshot or baseline):
        the side read from it is compared again as the file reads now."""
        request, path = self.request, operand.path
        if request is None or path is None:
            return

        def renewed(side: Operand | None) -> Operand | None:
            return operand if side is not None and _from_file(side, path) else side

        left, right = renewed(request.left), renewed(request.right)
        if left is not request.left or right is not request.right:
            self.removed.pop(path, None)  # read again: it is there (again)
            self._compare_or_say_removed(replace(request, left=left, right=right))

    def side_removed(self, path: Path, hint: str, gone: str = "was removed") -> None:
        """A side's file ``path`` (a record, snapshot or baseline) was removed (``gone``:
        or what else became of it): the tab says so (``hint``: what to do instead) rather than list differences against an empty
        side, until it is read again (``renew_side``)."""
        request = self.request
        if request is None or path not in _side_files(request):
            return
        self.removed[path] = f"{gone}: nothing to compare; {hint}"

        def forgotten(side: Operand | None) -> Operand | None:
            # Its verdict was of what the file held: no longer shown as the side's.
            if side is not None and _from_file(side, path):
                return replace(side, verdict=None, note=None)
            return side

        self._compare_or_say_removed(
            replace(request, left=forgotten(request.left), right=forgotten(request.right))
        )

    @property
    def removed_notes(self) -> list[str]:
        """Why the comparison held is not shown: a line for each side whose file was
        removed (none: it is shown)."""
        request = self.request
        if request is None:
            return []
        return [
            f"{letter}'s file {self.removed[side.path]}"
            for letter, side in (("A", request.left), ("B", request.right))
            if side is not None and side.path in self.removed
        ]

    def _compare_or_say_removed(self, request: DiffRequest) -> None:
        if not self.removed:
            self._start(request)
            return
        self.request = request
        self._token += 1  # a comparison under way was of what the file held
        self.outcome = None
        self.add_class("-removed")
        self._set_title(request)

    def show_diff_values(
        self, left_label: str, left_value: Any, right_label: str, right_value: Any
    ) -> Worker[DiffOutcome]:
        request = DiffRequest(
            safe(left_label), safe(right_label), left_value=left_value, right_value=right_value
        )
        self.add_class("-no-sections")
        self.removed = {}
        self.scroll_home(animate=False)
        return self._start(request)

    def _start(self, request: DiffRequest) -> Worker[DiffOutcome]:
        self.request = request
        self._follow_at = None
        self._token += 1
        self.remove_class("-empty", "-removed")
        self._set_title(request)
        self._set_status(Content.assemble(("Comparing…", DIM_STYLE)))
        self.query_one("#diff-summary", Static).update("")
        return self._compute(self._token, request, self.section if request.is_records else COMPARE)

    @work(thread=True, exclusive=True, group="diff", exit_on_error=False)
    def _compute(self, token: int, request: DiffRequest, section: str) -> DiffOutcome:
        outcome = compute_diff(request, section)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Finished(token, outcome))
        return outcome

    @on(Select.Changed, "#diff-section")
    def _section_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self.request is not None and self.request.is_records:
            self._compare_or_say_removed(self.request)

    def on_diff_pane_finished(self, message: Finished) -> None:
        message.stop()
        if message.token != self._token:
            return  # superseded by a newer comparison
        outcome = message.outcome
        self.outcome = outcome
        request = outcome.request
        self._show_summary()
        if outcome.error is not None:
            self._set_status(
                Content.assemble(
                    badge("DIFF FAILED", "error"), "  ", (safe(outcome.error), PROBLEM_STYLE)
                )
            )
        self.view.set_entries(
            outcome.entries,
            paths=outcome.paths,
            before_label=f"A {request.left_label}",
            after_label=f"B {request.right_label}",
            empty_text="(no changes)" if outcome.error is None else "(diff failed)",
        )
        if self._follow_at is not None:  # the full screen closed before this was made
            self.follow_full_screen(self._follow_at)

    # ------------------------------------------------------------------ display

    def _set_title(self, request: DiffRequest) -> None:
        width = self.scrollable_content_region.width  # 0 until laid out: set again on resize

        def title(side: str, style: str, label: str, operand: Operand | None) -> Content:
            mark = _mark(operand)
            room = width - len(side) - Content(mark[0]).cell_length
            if room < MIN_TITLE_NAME:  # the mark wraps below it anyway: the name has the line
                room = width - len(side)  # (cut to 12, `t…pshot.json`, it wrapped all the same)
            name = title_name(label, room)
            return Content.assemble((side, style), name, mark)

        titles = [  # a line each, as the verdicts below them
            title("A: ", "bold $text-error", request.left_label, request.left),
            title("B: ", "bold $text-success", request.right_label, request.right),
        ]
        notes = [Content.styled(safe(note), WARNING_STYLE) for note in self.removed_notes]
        lines = [*titles, *notes, *_verdict_lines(request, width), *_load_warnings(request)]
        if self.elsewhere and self._selected is not None:  # first: the border names another
            kept = f"Kept from before: not of the selected {self._selected[1]}"
            lines.insert(0, Content.styled(kept, WARNING_STYLE))
        self.query_one("#diff-title", Static).update(Content("\n").join(lines))

    def _set_status(self, content: Content | list[Content]) -> None:
        status = self.query_one("#diff-status", PartsText)
        if isinstance(content, Content):
            status.update(content)
        else:  # wrapped between its parts only: "5 changed events" stays on one row
            status.show_parts(content)

    def on_diff_view_cursor_moved(self, message: DiffView.CursorMoved) -> None:
        message.stop()
        outcome = self.outcome
        if outcome is None or outcome.error is not None:
            return
        self._set_status(self._status(outcome, message.index))
        self.query_one("#diff-current", Static).update(self._current(message.entry, message.index))
        if self.view.has_focus:  # moved with the list's own keys (tab, then j, k, n)
            self._reveal_list()

    @staticmethod
    def _status(outcome: DiffOutcome, index: int) -> list[Content]:
        from intentus_tui.core.actions import changed_events_text, changed_values_text

        entries = outcome.entries
        hidden = outcome.comparison.hidden if outcome.comparison is not None else 0
        hidden_part = Content.styled(
            f"   {hidden:,} hidden by ignore rules" if hidden else "", DIM_STYLE
        )
        if not entries:
            request = outcome.request
            if not from_untrusted(request.left, request.right):
                return [
                    Content.assemble(badge("EQUAL", "ok"), ("  (no changes)", OK_STYLE)),
                    hidden_part,
                ]
            # Values that match prove nothing while a side fails its integrity check.
            said = f"  (no changes), {UNTRUSTED_EVIDENCE}"
            return [Content.assemble(badge("EQUAL", "warning"), (said, WARNING_STYLE)), hidden_part]
        counts = {"added": 0, "removed": 0, "changed": 0}
        for entry in entries:
            counts[entry.kind] += 1
        total = len(entries)
        # Events where they were compared event by event, as `diff` and the comparison
        # screen count them beside the values.
        events = outcome.comparison.changed_events if outcome.comparison is not None else None
        # After the values' own figures: in a narrow pane those stay on one line.
        # Each count with its noun is a part: the status wraps between parts only.
        events_part = Content.styled(
            "" if events is None else f"   {changed_events_text(events)}", "bold"
        )
        return [
            Content.styled(changed_values_text(total), "bold"),
            Content.assemble(
                ("  ", ""),
                (f"+{counts['added']:,} ", "$text-success"),
                (f"-{counts['removed']:,} ", "$text-error"),
                (f"~{counts['changed']:,}", "$text-warning"),
            ),
            Content.styled(f"   at {index + 1:,}/{total:,}", "bold"),
            Content.styled("   n/N: next/previous", DIM_STYLE),
            events_part,
            hidden_part,
        ]

    def _current(self, entry: DiffEntry | None, index: int) -> Content:
        if entry is None:
            return Content("")
        path = self.view.path_at(index)
        # Read further than is shown, then cut where A and B differ, both in the panel.
        reach = CURRENT_VALUE_CHARS * CURRENT_VALUE_REACH
        kind = entry.kind
        # A side that has no value says so as the full screen's panel does (this said
        # `∅ (absent)`), and what happened to the value follows its path, as there.
        before = None if kind == "added" else compact_value(entry.before, reach, sort_keys=True)
        after = None if kind == "removed" else compact_value(entry.after, reach, sort_keys=True)
        width = max(self.scrollable_content_region.width - 2, 8)  # less the side's letter
        shown = panel_texts(before, after, width, lines=CURRENT_LINES)
        gap = Content.styled(NO_VALUE_HERE, DIM_STYLE)
        return Content("\n").join(
            [
                Content.assemble(
                    ("at ", DIM_STYLE), (path, "bold"), "  ", (kind, "bold $text-warning")
                ),
                Content.assemble(("A ", "bold $text-error"), gap if shown[0] is None else shown[0]),
                Content.assemble(
                    ("B ", "bold $text-success"), gap if shown[1] is None else shown[1]
                ),
            ]
        )

    def open_full_screen(self) -> None:
        from intentus_tui.tui.comparing import ComparisonLauncher

        request = self.request
        app = self.app
        if request is None or request.left is None or request.right is None:
            return
        if removed := self.removed_notes:
            app.notify("\n".join(removed), severity="warning", markup=False, timeout=4)
            return
        if isinstance(app, ComparisonLauncher):
            # It opens where this tab is: the difference under the cursor (it opened on
            # its own first one, and counted in its own order).
            entry = self.view.current_entry
            at = entry.path if entry is not None else None
            app.open_comparison(request.left, request.right, at, self.follow_full_screen)

    def follow_full_screen(self, path: tuple[object, ...] | None) -> None:
        """The full-screen comparison closed on the difference at ``path``: the list's
        cursor goes to it (to the entry holding it), now or once the comparison is made."""
        self._follow_at = path
        outcome = self.outcome
        if path is None or outcome is None or outcome.request is not self.request:
            return  # the comparison under way moves to it when it is made
        self._follow_at = None
        before = self.view.cursor
        # Moved only if the user moved there: closed where it opened, the tab stays as it
        # was (scrolled to the list, its titles and warning went out of sight at 80x24).
        if self.view.move_to_path(path) and self.view.cursor != before:
            self._reveal_list()

    # ------------------------------------------------------------------ navigation

    def next_difference(self) -> bool:
        moved = self.view.next_difference()
        self._reveal_list()
        return moved

    def previous_difference(self) -> bool:
        moved = self.view.previous_difference()
        self._reveal_list()
        return moved

    def _reveal_list(self) -> None:
        """Bring the list's cursor and the difference it is at into view: on a pane too
        short for the text above the list (80x24: titles, verdicts, warnings, answers), the
        pane scrolls, as ``n``, ``N`` or the list's own keys move through the list."""
        if not self.view.entries:
            return

        def reveal() -> None:
            for widget in (self.query_one("#diff-current"), self.view):
                self.scroll_to_widget(widget, animate=False, immediate=True)

        self.call_after_refresh(reveal)

    @property
    def entries(self) -> Sequence[DiffEntry]:
        return self.view.entries
