"""The full-screen comparison: A | B, the timelines aligned event by event above, the values
aligned by path below with unchanged runs folded. Each record's side names its execution and
the verdict it carries (``Operand.verdict``); a side whose evidence fails its integrity check
(tampered, a broken log chain) is warned about under the titles.

Opens on the first difference (the value lines and the timeline's first differing event are
highlighted and scrolled to). ``n``/``N`` go to the next/previous difference of the focused
view: in the values each changed value (the unit the status line counts them in, as the Diff
tab and ``intentus-tui diff`` do: ``27 changed values · at value 4/27``), in the timeline each
changed event (``13 changed events · at event 4/13``), ``t`` switches between the timeline and the values, ``enter`` on an event shows its
lines, ``i`` turns the ignore rules off and on (the number of differences they hide is
always on the status line), ``e`` unfolds the unchanged lines, ``escape``/``q`` close.

A record side whose file changes (or goes) while it is open is compared again as the file
reads now (``compare_again_with``): its title, verdict and warnings too. Removed, it is said
to be (``side_removed``) rather than compared as an empty record, until the file comes back.

What is compared and how is the core's (``actions.compare_side_by_side``), computed in a
thread worker; every text from a record is sanitized before it is drawn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from intentus_tui.core.actions import (
    CompareError,
    Fold,
    Folded,
    Operand,
    SideBySide,
    SideRow,
    compare_side_by_side,
    detail_operand,
    equal_words,
    ignore_config,
)
from intentus_tui.core.model import Verdict
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.cells import fit
from intentus_tui.tui.presenters.compare_text import (
    NO_VALUE_HERE,
    RECORD_WORD,
    WHOLE_VALUE_REACH,
    WHOLE_WARNING_KEY,
    abbreviated,
    counts_text,
    divergence_text,
    hidden_text,
    panel_texts,
    path_rows,
    position_text,
    short_untrusted_warning,
    side_titles,
    sides_text,
    span_state,
    untrusted_warnings,
    value_span,
    warning_rows,
    whole_value_line,
)
from intentus_tui.tui.widgets.clamped_text import ClampedText
from intentus_tui.tui.widgets.footer import AppFooter
from intentus_tui.tui.widgets.parts_text import separated_rows
from intentus_tui.tui.widgets.side_by_side_view import SideBySideView

if TYPE_CHECKING:
    from pathlib import Path

    from intentus_tui.core.actions import ExecutionDetail

DIM = "$foreground-muted"
TITLE_LINES = 2  # each side's title, at most (compare.tcss)
STACK_TITLES_BELOW = 120  # columns: narrower, the titles go one above the other


STATUS_ROWS = 2  # the status line's rows, as a rule
# The rows it may take to say the first divergence whole (``compare.tcss``): at 80 columns a
# record's (``events[1] (seq 2 / 2): same type AGENT_ATTEMPT_START, payload differs (1
# changed value)``) was cut after ``same type``, the words saying what diverged nowhere.
DIVERGENCE_ROWS = 4
# The rows the warning about untrusted sides may take before its short form is shown: fewer
# on a short screen (a 24-row one gave it four, the values then four lines).
WARNING_ROWS = 4
SHORT_SCREEN_WARNING_ROWS = 2
SHORT_SCREEN = 30


def clamped(content: Content, width: int, rows: int) -> Content:
    """``content`` wrapped to ``width``, in ``rows`` rows at most: the last kept row ends
    with "…" when more was cut."""
    lines = content.wrap(width)
    if len(lines) <= rows:
        return content
    last = lines[rows - 1]
    if last.cell_length >= width:
        last = last.truncate(width - 1)
    return Content("\n").join([*lines[: rows - 1], last + "…"])


def title_rows(name: str, style: str, title: str, width: int) -> list[Content]:
    """A side's title in rows of ``width``, broken between its parts only, the row's end
    parting two of them (at 40-50 columns "tampered" ended one and "· ✗ no (untrusted)"
    began the next; then "⚠ untrusted ·" ended one, as if cut off)."""
    first, *rest = title.split(" · ")
    parts = [Content.assemble((name, style), first), *(Content(part) for part in rest)]
    return separated_rows(parts, width, [Content(" ·")] * len(parts), ends=False)


class ComparisonScreen(Screen[tuple[object, ...] | None]):
    """A against B, full screen."""

    CSS_PATH = "compare.tcss"
    AUTO_FOCUS = "#compare-values"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_difference", "Next", id="compare.next"),
        Binding("N", "previous_difference", "Prev", id="compare.previous"),
        Binding("i", "toggle_ignore", "Ignore", id="compare.ignore"),
        Binding("t", "switch_view", "Switch", id="compare.switch"),
        Binding("e", "toggle_folding", "Unfold", id="compare.unfold"),
        Binding(
            WHOLE_WARNING_KEY,
            "toggle_whole_warning",
            "The warning in full",
            show=False,
            id="compare.whole-warning",
        ),
        Binding(
            "enter", "show_event", "Show the event's values", show=False, id="compare.show-event"
        ),
        Binding("escape,q", "close", "Close", id="compare.close"),
    ]

    def __init__(
        self,
        a: Operand,
        b: Operand,
        roots: tuple[str | None, str | None] = (None, None),
        at: tuple[object, ...] | None = None,
    ) -> None:
        """``roots``: the label of the root each side's file is in, when several are open;
        ``at``: the path of the difference to open on (the Diff tab's), else the first."""
        super().__init__()
        self._opening_at = at
        self._roots = roots
        # The width at which the titles gave up the word "execution": at that width they
        # keep without it, so that comparing again (a side's file changed) never brings it
        # back ("A e3151288" became "A execution e3151288" when a verdict got shorter).
        self._wordless_at: int | None = None
        self.a = a
        self.b = b
        # Each record's verdict comes with it from the core, as every screen shows it; the
        # longest version of each title that fits its half of the screen is shown.
        self.title_versions = side_titles(a, b, roots)
        self.titles = (self.title_versions[0][0], self.title_versions[1][0])
        self.warnings = untrusted_warnings(a, b)
        self.whole_warning = False  # ``w``: the warning in full where its short form shows
        self.warning_cut = False  # the short form shows: the whole takes too many rows
        self.compared: SideBySide | None = None
        self.error: str | None = None
        self.rules_on = True
        self.folding = True
        self.folded: Folded | None = None
        self._raw_to_shown: list[int] = []
        self._shown_to_raw: list[int] = []
        # The files of sides removed (or unreadable) while shown, each with what is said:
        # ``was removed: nothing to compare; HINT``.
        self.removed: dict[Path, str] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="compare-sides"):
            yield Static(Content.assemble(("A ", "bold $text-error"), self.titles[0]), id="side-a")
            yield Static(
                Content.assemble(("B ", "bold $text-success"), self.titles[1]), id="side-b"
            )
        # The reasons may take more rows than it has: its short form then (``_show_warning``).
        yield ClampedText(id="compare-warning")
        yield Static(Content.styled("Comparing…", DIM), id="compare-status")
        yield SideBySideView(id="compare-timeline")
        yield SideBySideView(id="compare-values")
        yield Static("", id="compare-current")
        yield AppFooter()

    @property
    def timeline(self) -> SideBySideView:
        return self.query_one("#compare-timeline", SideBySideView)

    @property
    def values(self) -> SideBySideView:
        return self.query_one("#compare-values", SideBySideView)

    def on_mount(self) -> None:
        # A toast from before (say, "Snapshot saved", 8 s) sat over the values at 80x24:
        # what is compared matters now. This screen's own warnings come after this.
        self.app.clear_notifications()
        self.values.focus()
        self._fit_titles(self.width_drawn)
        self._show_warning()
        self._compute()

    def on_resize(self, event: events.Resize) -> None:
        self._refit()

    @property
    def width_drawn(self) -> int:
        """The columns the lines above the timeline are drawn in: the screen's, less its
        scrollbar's when it scrolls (at 40-50 columns the warning, measured at the whole
        width, lost its last words "w: in full" to "w: in…", the status a lone "·")."""
        return max(self.app.size.width - self.scrollbar_size_vertical, 1)

    def watch_show_vertical_scrollbar(self) -> None:
        self._refit()

    def _refit(self) -> None:
        self._fit_titles(self.width_drawn)
        self._show_warning()
        self._show_status()
        if self.compared is not None:
            self._show_current(self._focused_view().current_row)

    def _show_warning(self) -> None:
        """The warning about untrusted sides: whole where it fits its rows (two on a short
        screen, where the values need the rest; four else), else its short form, each
        side's reason begun, and ``w`` for the whole (``w`` again: the short form)."""
        warning = self.query_one("#compare-warning", ClampedText)
        warning.display = bool(self.warnings)
        if not self.warnings:
            return
        width, height = self.width_drawn, self.app.size.height
        inner = max(width - 2, 1)  # less the padding
        rows = WARNING_ROWS if height >= SHORT_SCREEN else SHORT_SCREEN_WARNING_ROWS

        def rows_of(text: str) -> int:
            return sum(len(warning_rows(line, inner)) for line in text.split("\n"))

        text = "\n".join(self.warnings)
        self.warning_cut = rows_of(text) > rows
        whole = self.warning_cut and self.whole_warning
        # The whole takes the timeline's rows on a short screen (the values keep theirs).
        self.set_class(whole and height < SHORT_SCREEN, "-whole-warning")
        if whole and self.focused is self.timeline:
            self.values.focus()
        if whole:
            text += f" · {WHOLE_WARNING_KEY}: shorter"
            rows = max(rows_of(text), rows)
        elif self.warning_cut:
            text = short_untrusted_warning(self.a, self.b, rows_of, rows) or text
        warning.styles.max_height = rows
        warning.update(
            Content("\n").join(
                Content.styled(row, "bold $text-error")
                for line in text.split("\n")
                for row in warning_rows(line, inner)
            )
        )

    def action_toggle_whole_warning(self) -> None:
        if not self.warning_cut:
            said = "The warning is whole on screen" if self.warnings else "No side is untrusted"
            self.notify(said, timeout=2)
            return
        self.whole_warning = not self.whole_warning
        self._show_warning()

    def _fit_titles(self, width: int) -> None:
        """Each side's longest title that fits. Side by side only from
        ``STACK_TITLES_BELOW`` columns and when each side fits one line of its half with its
        verdict in words; else one above the other, each the whole width, on one line when
        a version fits there, else two (at 80 columns a half cut a verdict's reason; at
        120-149 a verdict wrapped inside itself, "✗" on one line and "no (untrusted)" on
        the next, where only the list's marks fitted a line)."""
        sides = (
            ("A ", "bold $text-error", self.title_versions[0], "#side-a"),
            ("B ", "bold $text-success", self.title_versions[1], "#side-b"),
        )
        verdicts = (self.a.verdict, self.b.verdict)
        kinds = (self.a.kind, self.b.kind)

        def lines(name: str, title: str, inner: int) -> int:
            return len(title_rows(name, "", title, inner))

        def worded(versions: list[str], verdict: Verdict | None, kind: str) -> list[str]:
            # The list's marks (a record's last version, where they read otherwise) are
            # for a line too narrow for the words, never a reason to stay side by side; nor
            # is a snapshot's name cut short (``snapshot exec-2e05319a-2bd4be78.…`` at 120
            # columns, its end and its workflow and step lost, where stacked it fits whole).
            if kind == "snapshot":
                return versions[:1]
            return versions[:-1] if abbreviated(verdict) and len(versions) > 1 else versions

        half, whole = max(width // 2 - 2, 1), max(width - 2, 1)  # less the padding
        side_by_side = width >= STACK_TITLES_BELOW and all(
            any(lines(name, t, half) <= 1 for t in worded(versions, verdict, kind))
            for (name, _, versions, _), verdict, kind in zip(sides, verdicts, kinds, strict=True)
        )
        stacked = not side_by_side
        self.set_class(stacked, "-stacked-titles")
        inner = whole if stacked else half

        def fitting_in(
            name: str, versions: list[str], verdict: Verdict | None, kind: str
        ) -> list[str]:
            if not stacked:  # what made them side by side: one line each, in words
                return [t for t in worded(versions, verdict, kind) if lines(name, t, inner) <= 1]
            for most in (1, TITLE_LINES):
                fits = [t for t in versions if lines(name, t, inner) <= most]
                if fits:
                    return fits
            return []

        fitting = [
            fitting_in(name, versions, verdict, kind)
            for (name, _, versions, _), verdict, kind in zip(sides, verdicts, kinds, strict=True)
        ]
        # Two executions are named alike: when one side drops the word "execution" to
        # fit, so does the other.
        chosen = [
            fits[0] if fits else versions[-1]
            for (_, _, versions, _), fits in zip(sides, fitting, strict=True)
        ]
        worded_both = all(versions[0].startswith(RECORD_WORD) for _, _, versions, _ in sides)
        if worded_both and (
            self._wordless_at == width or not all(title.startswith(RECORD_WORD) for title in chosen)
        ):
            fitting = [[t for t in fits if not t.startswith(RECORD_WORD)] for fits in fitting]
            self._wordless_at = width
        elif worded_both:
            self._wordless_at = None
        # Two verdicts are worded alike: when one side takes the list's abbreviated answers
        # (its last version) to fit, so does the other ("tampered · ✗ no (untrusted)"
        # beside "TAMPERED · ✗ untrust." read as two different verdicts).
        if verdicts[0] is not None and verdicts[1] is not None:
            chosen = [
                fits[0] if fits else versions[-1]
                for (_, _, versions, _), fits in zip(sides, fitting, strict=True)
            ]
            lasts = [versions[-1] for _, _, versions, _ in sides]
            if any(
                title == last and abbreviated(verdict)
                for title, last, verdict in zip(chosen, lasts, verdicts, strict=True)
            ):
                fitting = [
                    [t for t in fits if t == last]
                    for fits, last in zip(fitting, lasts, strict=True)
                ]
        titles = []
        for (name, style, versions, side), fits in zip(sides, fitting, strict=True):
            # None fits: the shortest, on one line, cut where it is cut.
            title = fits[0] if fits else fit(versions[-1], inner - len(name))
            titles.append(title)
            self.query_one(side, Static).update(
                Content("\n").join(title_rows(name, style, title, inner))
            )
        self.titles = (titles[0], titles[1])

    @work(thread=True, exclusive=True, group="comparison", exit_on_error=False)
    def _compute(self) -> None:
        config = ignore_config()
        try:
            layout = compare_side_by_side(self.a, self.b, config.rules)
        except CompareError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        except Exception as exc:  # a comparison never takes the debugger down
            self.app.call_from_thread(self._failed, f"{type(exc).__name__}: {exc}")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._ready, layout, config.problem)

    def _comparing(self) -> bool:
        """The sides as they were when the comparison started: none removed since."""
        return not self.removed

    def _failed(self, message: str) -> None:
        if not self._comparing():
            return
        self.error = message
        self.query_one("#compare-status", Static).update(
            Content.assemble(("Cannot compare: ", "bold $text-error"), sanitize_line(message))
        )

    def _ready(self, layout: SideBySide, problem: str | None) -> None:
        if not self._comparing():
            return  # of what a removed file held
        self.compared = layout
        if problem:
            self.notify(sanitize_line(problem), severity="warning", markup=False)
        self.set_class(not layout.timeline, "-no-timeline")
        self.refresh_bindings()  # the footer: t only where there are timelines
        self._show()

    def compare_again_with(self, detail: ExecutionDetail) -> None:
        """``detail`` is a newer read of a file that changed (or went): a record side read
        from it is compared again, its title, verdict and warnings with it, never left
        showing what the file held."""
        self.renew_side(detail_operand(detail))

    def renew_side(self, operand: Operand) -> None:
        """``operand`` is a newer read of a side's file (a record, snapshot or baseline):
        the side read from it is compared again as the file reads now."""
        path = operand.path

        def renewed(side: Operand) -> Operand:
            return operand if path is not None and _from_file(side, path) else side

        a, b = renewed(self.a), renewed(self.b)
        if path is None or (a is self.a and b is self.b):
            return
        self.removed.pop(path, None)  # read again: it is there (again)
        self._set_sides(a, b)
        if not self.is_mounted:
            return  # its mount shows them and compares
        if self.removed:
            return  # the other side still removed: said, not compared
        # Opened again where it was: the difference under the cursor, if it is still one.
        folded, cursor = self.folded, self.values.cursor
        row = folded.rows[cursor] if folded is not None and 0 <= cursor < len(folded.rows) else None
        self._opening_at = row.path if isinstance(row, SideRow) and row.path else None
        self.error = None
        self.query_one("#compare-status", Static).update(Content.styled("Comparing…", DIM))
        self._compute()

    def side_removed(self, path: Path, hint: str, gone: str = "was removed") -> None:
        """A side's file ``path`` (a record, snapshot or baseline) was removed (``gone``:
        or what else became of it): the screen says so (``hint``: what to do instead) rather than show differences against an empty
        side, until it is read again (``renew_side``)."""

        def forgotten(side: Operand) -> Operand:
            # Its verdict was of what the file held: no longer shown as the side's.
            if _from_file(side, path):
                return replace(side, verdict=None, note=None)
            return side

        a, b = forgotten(self.a), forgotten(self.b)
        if a is self.a and b is self.b:
            return
        self.removed[path] = f"{gone}: nothing to compare; {hint}"
        self._set_sides(a, b)
        if not self.is_mounted:
            return
        self.workers.cancel_group(self, "comparison")
        self.compared, self.folded, self.error = None, None, None
        notes = self.removed_notes
        for view in (self.values, self.timeline):
            view.set_rows([], [], rules_on=self.rules_on, labels=("A", "B"), empty_text="")
        self.query_one("#compare-current", Static).update("")
        self.query_one("#compare-status", Static).update(
            Content("\n").join(Content.styled(note, "bold $text-warning") for note in notes)
        )

    @property
    def removed_notes(self) -> list[str]:
        """A line for each side whose file was removed (or cannot be read) while shown."""
        return [
            f"{letter}'s file {self.removed[side.path]}"
            for letter, side in (("A", self.a), ("B", self.b))
            if side.path is not None and side.path in self.removed
        ]

    def _set_sides(self, a: Operand, b: Operand) -> None:
        self.a, self.b = a, b
        self.title_versions = side_titles(a, b, self._roots)
        self.warnings = untrusted_warnings(a, b)
        if not self.is_mounted:
            return
        self._show_warning()
        self._fit_titles(self.width_drawn)

    # ------------------------------------------------------------------ drawing

    def _show(self, keep_position: bool = False) -> None:
        layout = self.compared
        if layout is None:
            return
        old_raw = self._raw_index(self.values.cursor) if keep_position else None
        self.folded = layout.fold(self.rules_on, context=3 if self.folding else 10**9)
        self._raw_to_shown = _raw_to_shown(self.folded.rows, len(layout.values))
        self._shown_to_raw = _shown_to_raw(self.folded.rows)
        cursor = None if old_raw is None else self._raw_to_shown[old_raw]
        if cursor is None and self._opening_at is not None:
            cursor = _difference_at(self.folded, self._opening_at)
            self._opening_at = None  # once: a later redraw keeps its own place
        self.values.set_rows(
            self.folded.rows,
            self.folded.differences,
            rules_on=self.rules_on,
            labels=("A values", "B values"),
            cursor=cursor,
            empty_text="(nothing to compare)",
        )
        differing = layout.timeline_differences(self.rules_on)
        self.timeline.set_rows(
            layout.timeline,
            differing,
            rules_on=self.rules_on,
            labels=(f"A events ({_count(layout, 'a')})", f"B events ({_count(layout, 'b')})"),
            cursor=self.timeline.cursor if keep_position else None,
            empty_text="(no events)",
        )
        self._show_status()

    def _show_status(self) -> None:
        layout = self.compared
        if layout is None or self.folded is None:
            return
        view = self._focused_view()
        # In the unit the counts use: n steps through values or events, one at a time.
        at = position_text(view is self.timeline, view.difference_position(), len(view.differences))
        counts = counts_text(layout, self.rules_on, equal_words(self.a, self.b))
        parts = [
            Content.styled(sides_text(self.a, self.b, layout.comparison.compared), DIM),
            *(Content.styled(count, "bold") for count in [*counts.split(" · "), at]),
        ]
        hidden = hidden_text(layout, self.rules_on)  # nothing hidden: nothing said
        parts.append(Content.styled(hidden, "$text-warning" if self.rules_on else "$text-accent"))
        flowing = len(parts)  # the sentences after the counts: wrapped at their words
        divergence = divergence_text(layout, self.rules_on)
        if divergence:
            parts.append(Content.styled(f"first divergence: {divergence}", DIM))
        width = max(self.width_drawn - 2, 1)  # the status's padding
        # No "·" ends a row, nor begins one, nor is a row alone; bold before a count.
        marks = [
            Content.styled(" ·", "bold" if i > 0 and _next_shown(parts, i) < flowing - 1 else DIM)
            for i in range(len(parts))
        ]
        # Two rows, or as many more as the first divergence needs to be read whole (up to
        # ``DIVERGENCE_ROWS``); the notes after it take what is left: what does not fit ends
        # in "…", never cut off unsaid.
        wanted = len(separated_rows(parts, width, marks, flowing, ends=False))
        rows = min(max(wanted, STATUS_ROWS), DIVERGENCE_ROWS)
        parts += [Content.styled(sanitize_line(note), DIM) for note in layout.comparison.notes]
        marks += [Content.styled(" ·", DIM)] * len(layout.comparison.notes)
        lines = separated_rows(parts, width, marks, flowing, ends=False)
        if len(lines) > rows:
            last = lines[rows - 1]
            if last.plain.endswith(" ·"):
                last = last[:-2]
            if last.cell_length >= width:
                last = last.truncate(width - 1)
            lines = [*lines[: rows - 1], last + "…"]
        self.query_one("#compare-status", Static).update(Content("\n").join(lines))

    def _focused_view(self) -> SideBySideView:
        return self.timeline if self.focused is self.timeline else self.values

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # ``t`` or a click moved the focus (it lands after the action returns): the status
        # line's position, in its unit, and the line below are the focused view's.
        if self.compared is not None:
            self._show_current(self._focused_view().current_row)
        self._show_status()

    def on_side_by_side_view_cursor_moved(self, message: SideBySideView.CursorMoved) -> None:
        message.stop()
        if message.view is self._focused_view():
            self._show_current(message.row)
        if message.view is self.values and isinstance(message.row, SideRow):
            self._follow_in_timeline()
        self._show_status()

    def _follow_in_timeline(self) -> None:
        """The values cursor in an event's lines: that event's row in the timeline too."""
        layout = self.compared
        raw = self._raw_index(self.values.cursor)
        index = layout.timeline_row_at(raw) if layout is not None else None
        if index is not None and index != self.timeline.cursor:
            self.timeline.cursor = index

    def _show_current(self, row: SideRow | Fold | None) -> None:
        current = self.query_one("#compare-current", Static)
        if row is None or isinstance(row, Fold):
            current.update(Content.styled("e: unfold the unchanged lines", DIM) if row else "")
            return
        texts = [row.a, row.b]
        status = "same" if row.status == "same" else "changed" if row.differs(self.rules_on) else ""
        layout = self.compared
        limit = max(self.width_drawn - 4, 8)  # the padding and the side's letter
        one_line = False
        if layout is not None and self._focused_view() is self.values:
            # An object or an array is shown whole on its one line, not as its "{", and
            # is "changed" when anything in it is (as the timeline marks its event).
            raw = self._raw_index(self.values.cursor)
            for number, side in enumerate(("a", "b")):
                whole = whole_value_line(layout.values, raw, side, limit * WHOLE_VALUE_REACH)
                one_line = one_line or whole is not None
                texts[number] = whole if whole is not None else texts[number]
            span = value_span(layout.values, raw) if row.status == "same" else None
            if span is not None:
                status = span_state(layout.values, span, self.rules_on)
        if row.status == "uncompared":
            state = ("only one side has it: left out of the comparison", DIM)
        elif status == "same":
            state = ("same", DIM)
        elif status == "changed":
            state = (row.status if row.status != "same" else "changed", "bold $text-warning")
        else:
            state = ("differs, hidden by an ignore rule", "italic " + DIM)
        gap = Content.styled(NO_VALUE_HERE, DIM)
        shown = panel_texts(texts[0], texts[1], limit, one_line=one_line)
        sides = [
            Content.assemble((letter, style), gap if text is None else Content(text))
            for letter, style, text in (
                ("A ", "bold $text-error", shown[0]),
                ("B ", "bold $text-success", shown[1]),
            )
        ]
        where = layout.path_text(row) if layout is not None else row.path_text
        width = max(self.width_drawn - 2, 1)  # the padding
        rows = path_rows(sanitize_line(where), width)
        lines = [Content.styled(text, "bold") for text in rows]
        lines[0] = Content.assemble(("at ", DIM), (rows[0][3:], "bold"))
        told = Content.styled(*state)
        if lines[-1].cell_length + 2 + told.cell_length <= width:
            lines[-1] = Content.assemble(lines[-1], "  ", told)
        else:
            lines.append(told)
        current.update(Content("\n").join([*lines, *sides]))

    def _raw_index(self, shown: int) -> int:
        """The index in ``compared.values`` of display row ``shown`` (a fold: its first)."""
        starts = self._shown_to_raw
        return starts[shown] if 0 <= shown < len(starts) else 0

    # ------------------------------------------------------------------ actions

    def action_next_difference(self) -> None:
        if self._said_removed() or self._nothing_to_step_to():
            return
        if not self._focused_view().next_difference():
            self._at_the_end("last", "N goes back")

    def action_previous_difference(self) -> None:
        if self._said_removed() or self._nothing_to_step_to():
            return
        if not self._focused_view().previous_difference():
            self._at_the_end("first", "n goes on")

    def _at_the_end(self, which: str, back: str) -> None:
        """Said, not only rung: most terminals keep the bell silent."""
        count = len(self._focused_view().differences)
        self.app.bell()
        self.notify(f"This is the {which} difference ({count:,} in all): {back}", timeout=2)

    def _said_removed(self) -> bool:
        if notes := self.removed_notes:
            self.notify("\n".join(notes), severity="warning", markup=False, timeout=4)
        return bool(notes)

    def _nothing_to_step_to(self) -> bool:
        """No difference in the focused view (equal sides): ``n``/``N`` say so, rather than
        ring a bell most terminals keep silent."""
        view, layout = self._focused_view(), self.compared
        if layout is None or view.differences:
            return False
        from intentus_tui.tui.presenters.compare_text import nothing_to_step_to

        in_timeline = view is self.timeline
        self.notify(nothing_to_step_to(layout, self.rules_on, in_timeline=in_timeline), timeout=4)
        return True

    def action_toggle_ignore(self) -> None:
        self.rules_on = not self.rules_on
        self._show(keep_position=True)  # the status line says which

    def action_toggle_folding(self) -> None:
        self.folding = not self.folding
        self._show(keep_position=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # No timelines (a snapshot, a baseline): ``t`` is not offered in the footer.
        return not (action == "switch_view" and self.has_class("-no-timeline"))

    def on_key(self, event: events.Key) -> None:
        """``t`` (or the key the keymap gives it) without timelines says why it does nothing."""
        if not self.has_class("-no-timeline"):
            return
        bindings = self._bindings.key_to_bindings.get(event.key, ())
        if any(binding.action == "switch_view" for binding in bindings):
            from intentus_tui.tui.presenters.compare_text import no_timelines_text

            event.stop()
            self.notify(no_timelines_text(self.a, self.b), timeout=4)

    def action_switch_view(self) -> None:
        if self.focused is self.timeline or self.has_class("-no-timeline"):
            self.values.focus()
        else:
            self.timeline.focus()
        self._show_status()

    def action_show_event(self) -> None:
        """On the timeline: move the values to the lines of the event under the cursor."""
        layout = self.compared
        if layout is None or self.focused is not self.timeline or not layout.event_rows:
            return
        index = self.timeline.cursor
        if not 0 <= index < len(layout.event_rows) or layout.event_rows[index] < 0:
            return
        raw = layout.event_rows[index]
        folded = self.folded
        if folded is not None and isinstance(folded.rows[self._raw_to_shown[raw]], Fold):
            # An unchanged event's lines are folded away: show them, not the fold.
            self.folding = False
            self._show(keep_position=True)
            self.notify("Unfolded to show the event: e folds unchanged lines again", timeout=3)
        self.values.focus()
        shown = self._raw_to_shown[raw]
        self.values.cursor = shown
        # The event from its first line down: moved to from above, the cursor would sit on
        # the pane's last row, every value of the event below it (a short pane at 80x24).
        self.values.scroll_to(y=shown, animate=False, immediate=True)

    def action_close(self) -> None:
        """Closed with the path of the difference the values' cursor is on (the Diff tab
        follows it there), else None."""
        folded, cursor = self.folded, self.values.cursor
        row = folded.rows[cursor] if folded is not None and 0 <= cursor < len(folded.rows) else None
        self.dismiss(row.path if isinstance(row, SideRow) and row.path else None)


def _next_shown(parts: list[Content], index: int) -> int:
    """The index of the first part after ``index`` that says something."""
    return next((i for i in range(index + 1, len(parts)) if parts[i].plain), len(parts))


def _raw_to_shown(rows: tuple[SideRow | Fold, ...], raw_count: int) -> list[int]:
    """For each raw value row, the display row showing it (a fold for a folded row)."""
    out = [0] * max(raw_count, 1)
    raw = 0
    for index, row in enumerate(rows):
        span = row.count if isinstance(row, Fold) else 1
        for k in range(raw, min(raw + span, raw_count)):
            out[k] = index
        raw += span
    return out


def _shown_to_raw(rows: tuple[SideRow | Fold, ...]) -> list[int]:
    out: list[int] = []
    raw = 0
    for row in rows:
        out.append(raw)
        raw += row.count if isinstance(row, Fold) else 1
    return out


def _count(layout: SideBySide, side: str) -> int:
    return sum(1 for row in layout.timeline if (row.a if side == "a" else row.b) is not None)


def _difference_at(folded: Folded, path: tuple[object, ...]) -> int | None:
    """The display row of the difference at ``path`` or the first one inside it (a
    changed event's values), if the folded rows show one."""
    for index in folded.differences:
        row = folded.rows[index]
        if isinstance(row, SideRow) and row.path[: len(path)] == path:
            return index
    return None


def _from_file(side: Operand, path: Path) -> bool:
    """Whether ``side`` is what the file ``path`` held: a record, snapshot or baseline."""
    return side.kind in ("record", "snapshot") and side.path == path
