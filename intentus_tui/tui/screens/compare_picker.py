"""``D``: pick what to compare the selected execution with, by typing a few letters.

An input on top, the candidates below (snapshots just saved, saved snapshots, Verist
baselines, record files, then every execution with its verdict marks); typing filters them
fuzzily (the letters in order, anywhere in the line) and the matched letters are
highlighted. Up/down (page up/down) choose, enter compares, escape cancels. A path typed
into the input is offered first when it names a file, or a run of a file as
``RUNS.db#RUN_ID``. An execution known only from its write-ahead log is listed dimmed and
cannot be chosen: its line says why (no record). Active Graph runs are listed too: a run
compares with another run only, so one chosen here is A of a second picker, of runs
(``ComparePicking``).

Only the best ``DEFAULT_LIMIT`` lines are ever in the list, whatever the number of
executions: the search (``presenters.compare_candidates``) stops once it has found them.
The candidates are gathered in a thread worker (reading the saved files' labels); the
input works before they arrive.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters.compare_candidates import (
    DEFAULT_LIMIT,
    GROUP_TITLES,
    KIND_WIDTH,
    Candidate,
    CandidateIndex,
    CandidateKind,
    Hit,
    path_candidate,
    typed_run_candidate,
)

MATCH_STYLE = "bold underline $text-accent"
KIND_STYLES: dict[CandidateKind, str] = {
    "path": "bold $text-accent",
    "saved": "bold $text-success",
    "snapshot": "$text-success",
    "baseline": "$text-accent",
    "record": "$text-warning",
    "run": "$text-primary",
    "execution": "$text-muted",
}
_COUNT_WORDS: dict[CandidateKind, tuple[str, str]] = {
    "saved": ("just saved", "just saved"),
    "snapshot": ("snapshot", "snapshots"),
    "baseline": ("baseline", "baselines"),
    "record": ("record file", "record files"),
    "run": ("run", "runs"),
    "execution": ("execution", "executions"),
}


def looks_like_path(text: str) -> bool:
    return "/" in text or text.startswith(("~", "."))


def typed_file(text: str) -> Path | None:
    """The file a typed path names (``~`` expanded), or None."""
    text = text.strip()
    if not text or not looks_like_path(text):
        return None
    path = Path(text).expanduser()
    try:
        return path if path.is_file() else None
    except OSError:
        return None


def typed_run(text: str) -> Candidate | None:
    """The run a typed ``RUNS.db#RUN_ID`` names (the file before the last ``#``, as
    ``intentus-tui diff`` reads it), or None: a file whose name holds ``#`` is that file."""
    text = text.strip()
    if "#" not in text or typed_file(text) is not None:
        return None
    database, _, run_id = text.rpartition("#")
    # `notes.db#ID` as `diff` takes it, from the current directory: a bare name was taken
    # for letters to filter by (a wrong id: "nothing matches", not diff's list of runs).
    path = typed_file(database if looks_like_path(database) else f"./{database}")
    return typed_run_candidate(path, run_id) if path is not None and run_id else None


def unusable_path(text: str) -> str:
    """Why a typed path names no file to compare (``typed_file`` found none), naming it, in
    the words ``intentus-tui diff`` says it of the same path (``no such file: …``,
    ``cannot follow …: the link loops or leads nowhere``, ``… is a directory: …``)."""
    from intentus_tui.core.actions import path_problem

    path = Path(text.strip()).expanduser()
    return path_problem(str(path), path) or f"cannot read {path}"


def candidate_prompt(candidate: Candidate, offsets: tuple[int, ...] = ()) -> Content:
    """A candidate's line, literal (never markup), its kind coloured and matches marked."""
    content = Content(candidate.line).stylize(KIND_STYLES[candidate.kind], 0, KIND_WIDTH)
    for offset in offsets:
        if not candidate.line[offset].isspace():
            content = content.stylize(MATCH_STYLE, offset, offset + 1)
    return content


def counts_text(
    counts: dict[CandidateKind, int],
    complete: bool = True,
    unavailable: Mapping[str, int] | None = None,
    executions: bool = True,
) -> str:
    """``1 snapshot · 2 baselines · 100,000 executions`` (kinds with none left out), and how
    many executions have nothing to compare, in the words their lines say it with
    (``5 executions (1 with no record, 1 not UTF-8 text, 1 empty)``: it said "3 with no
    record" of files its lines call otherwise); ``unavailable``: those counts
    (``CandidateIndex.unusable``); ``executions``: whether executions are offered at all
    (a picker of runs: never)."""
    parts = []
    for kind, (one, many) in _COUNT_WORDS.items():
        count = counts.get(kind, 0)
        if kind == "execution" and not executions:
            continue
        if kind == "execution" and not complete:
            parts.append("reading the executions…")
        elif count or kind == "execution":
            text = f"{count:,} {one if count == 1 else many}"
            if kind == "execution" and unavailable:
                said = ", ".join(f"{n:,} {word}" for word, n in unavailable.items())
                text += f" ({said})"
            parts.append(text)
    return " · ".join(parts)


class ComparePicker(ModalScreen[Candidate | None]):
    """Choose side B. Dismisses with the chosen ``Candidate`` or None (cancelled)."""

    CSS_PATH = str(Path(__file__).with_name("compare_picker.tcss"))

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="picker.cancel"),
        Binding("down", "move('cursor_down')", "Next candidate", show=False, id="picker.down"),
        Binding("up", "move('cursor_up')", "Previous candidate", show=False, id="picker.up"),
        Binding("pagedown", "move('page_down')", "Page down", show=False, id="picker.page-down"),
        Binding("pageup", "move('page_up')", "Page up", show=False, id="picker.page-up"),
    ]
    # What the help lists for the picker: its bindings, and enter (the input's own submit).
    HELP_KEYS: ClassVar[list[BindingType]] = [
        *BINDINGS,
        Binding("enter", "choose", "Compare with the highlighted line (or the typed path)"),
    ]
    AUTO_FOCUS = "#picker-input"

    class Loaded(Message):
        def __init__(self, index: CandidateIndex, complete: bool) -> None:
            super().__init__()
            self.index = index
            self.complete = complete

    def __init__(
        self,
        title: str,
        files: Callable[[], list[Candidate]],
        executions: Callable[[], list[Candidate]] = list,
        pause: Callable[[], None] | None = None,
        *,
        offers_executions: bool = True,
        hints: Mapping[CandidateKind, str] | None = None,
        looking: str = "Looking for snapshots, baselines and executions…",
        none_found: str = "nothing found: type a file's path",
        rank: Callable[[Candidate], int] | None = None,
    ) -> None:
        """``files`` and ``executions`` gather the candidates (in a thread worker): the
        files are listed as soon as they are found, the executions (100,000 lines to make,
        the first time) join them (``offers_executions``: there are any to offer, not a
        picker of runs). ``pause``, called now and then by
        that worker (and by ``executions``, as it likes), leaves the interpreter to the
        keys while they are being pressed (its lock is shared by every thread: a worker
        holding it delays each step of a key's answer by up to 5 ms). ``hints``: what
        choosing a line of a group does, where it does not compare (after its heading);
        ``looking``: the status line until the candidates are here, ``none_found`` when
        there are none; ``rank``: which line is highlighted first, with nothing typed (the
        lowest rank, the first of those; else the first line)."""
        super().__init__()
        self._title = sanitize_line(title)
        self._gather_files = files
        self._offers_executions = offers_executions
        self._gather_executions = executions
        self._pause = pause
        self._hints = dict(hints or {})
        self._looking = looking
        self._none_found = none_found
        self.index: CandidateIndex | None = None
        self.complete = False  # every candidate is in ``index``
        self.shown: list[Candidate | None] = []  # per option: its candidate (None: a heading)
        self._shown_query: str | None = None
        self._rank = rank
        self._default: str | None = None  # the key highlighted by default, until moved

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-dialog"):
            yield Static(Content(self._title), id="picker-title")
            yield Input(placeholder="type to filter, or a file path", id="picker-input")
            yield Static(Content(self._looking), id="picker-status")
            yield OptionList(id="picker-options")
            yield Static(
                Content("↑↓ choose   enter compare   esc cancel   a typed path is accepted"),
                id="picker-keys",
            )

    @property
    def input(self) -> Input:
        return self.query_one("#picker-input", Input)

    @property
    def options(self) -> OptionList:
        return self.query_one("#picker-options", OptionList)

    def on_mount(self) -> None:
        self.options.can_focus = False  # the input keeps the keys; up/down move the list
        # Once the picker is on screen: the worker would compete with its first frame.
        self.call_after_refresh(self._gather)

    def on_unmount(self) -> None:
        # What was gathered for 100,000 executions goes with the picker. The screen object
        # itself can outlive it for a while (its finished worker's context keeps it), and
        # with it, so far, every candidate: for the garbage collector to walk again and again.
        self.index = None
        self.shown = []
        self._gather_files = self._gather_executions = list

    @work(thread=True, exclusive=True, group="picker", exit_on_error=False)
    def _gather(self) -> None:
        files = self._gather_files()
        self.post_message(self.Loaded(CandidateIndex(files), complete=False))
        executions = self._gather_executions()
        index = CandidateIndex(files + executions, pause=self._pause)
        self.post_message(self.Loaded(index, complete=True))

    def on_compare_picker_loaded(self, message: Loaded) -> None:
        self.index = message.index
        self.complete = message.complete
        self.refresh_list()

    @on(Input.Changed, "#picker-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.refresh_list()

    # ------------------------------------------------------------------ the list

    def refresh_list(self) -> None:
        query = self.input.value
        options: list[Option] = []
        self.shown = []

        def add(candidate: Candidate | None, prompt: Content) -> None:
            self.shown.append(candidate)
            options.append(
                Option(prompt, disabled=candidate is None or bool(candidate.unavailable))
            )

        path = typed_file(query)
        typed = path_candidate(path) if path is not None else typed_run(query)
        if typed is not None:
            add(None, self._heading("path", 1))
            add(typed, candidate_prompt(typed))
        status = self._looking
        if self.index is not None:
            hits, more = self.index.search("" if typed is not None else query, DEFAULT_LIMIT)
            if query.strip() and typed is None:
                for hit in hits:
                    add(hit.candidate, candidate_prompt(hit.candidate, hit.offsets))
                status = self._match_status(len(hits), more)
                if looks_like_path(query.strip()):
                    status = unusable_path(query) + (f" · {status}" if hits else "")
            else:
                self._add_grouped(hits, add)
                status = counts_text(
                    self.index.counts(),
                    self.complete,
                    self.index.unusable(),
                    executions=self._offers_executions,
                ) or (self._none_found if self.complete else self._looking)
                if more:
                    status += f" — the first {DEFAULT_LIMIT} shown: type to narrow"
        elif looks_like_path(query) and query.strip() and typed is None:
            status = unusable_path(query)
        self.query_one("#picker-status", Static).update(Content(status))
        option_list = self.options
        before = self.highlighted if query == self._shown_query else None
        self._shown_query = query
        option_list.set_options(options)
        # More candidates arrived: the line the user was on stays chosen. A new query: the
        # best match; none when the best cannot be chosen (enter says why, rather than
        # compare with a weaker match the user did not mean).
        keys = [c.key if c is not None and not c.unavailable else None for c in self.shown]
        # A default left as it was is chosen again: a likelier line may have arrived.
        moved = before is not None and before.key != self._default
        self._default = None
        if moved and before is not None and before.key in keys:
            option_list.highlighted = keys.index(before.key)
        elif query.strip() and self._best_unavailable() is not None:
            option_list.highlighted = None
        else:
            ranked = [
                (self._rank(c) if self._rank is not None and not query.strip() else 0, i)
                for i, c in enumerate(self.shown)
                if c is not None and keys[i] is not None
            ]
            first = min(ranked)[1] if ranked else None
            option_list.highlighted = first
            self._default = keys[first] if first is not None else None

    def _best_unavailable(self) -> Candidate | None:
        """The first line shown, when it cannot be chosen."""
        best = next((c for c in self.shown if c is not None), None)
        return best if best is not None and best.unavailable else None

    @property
    def highlighted(self) -> Candidate | None:
        index = self.options.highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def _add_grouped(
        self, hits: list[Hit], add: Callable[[Candidate | None, Content], None]
    ) -> None:
        assert self.index is not None
        counts = self.index.counts()
        kind: CandidateKind | None = None
        for hit in hits:
            if hit.candidate.kind != kind:
                kind = hit.candidate.kind
                add(None, self._heading(kind, counts.get(kind, 0)))
            add(hit.candidate, candidate_prompt(hit.candidate))

    def _heading(self, kind: CandidateKind, count: int) -> Content:
        heading = f"── {GROUP_TITLES[kind]} ({count:,})"
        hint = self._hints.get(kind) if kind != "path" else None
        return Content.styled(f"{heading}: {hint}" if hint else heading, "bold $text-muted")

    @staticmethod
    def _match_status(count: int, more: bool) -> str:
        if not count:
            return "nothing matches: type fewer letters, or a path"
        if more:
            return f"the best of the first {count} matches: type more to narrow"
        return f"{count:,} match{'es' if count != 1 else ''}"

    # ------------------------------------------------------------------ keys

    def action_move(self, action: str) -> None:
        getattr(self.options, f"action_{action}")()

    @on(Input.Submitted, "#picker-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.choose()

    @on(OptionList.OptionSelected, "#picker-options")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)

    def choose(self, index: int | None = None) -> None:
        """Compare with the highlighted candidate (or a typed path that names a file)."""
        candidate = self.highlighted if index is None else self.shown[index]
        if candidate is not None and not candidate.unavailable:
            self.dismiss(candidate)
            return
        path = typed_file(self.input.value)
        unavailable = candidate or self._best_unavailable()
        if path is not None:
            self.dismiss(path_candidate(path))
        elif (run := typed_run(self.input.value)) is not None:
            self.dismiss(run)
        elif unavailable is not None:
            self.notify(
                sanitize_line(f"Cannot compare: {unavailable.unavailable}"),
                severity="warning",
                markup=False,
            )
        elif (typed := self.input.value.strip()) and looks_like_path(typed):
            # What the status line says of it, not "type a file's path": one was typed.
            self.notify(
                sanitize_line(f"Cannot compare: {unusable_path(typed)}"),
                severity="warning",
                markup=False,
            )
        elif typed:
            self.notify(
                "Nothing to compare with: choose a line, or type a file's path",
                severity="warning",
                markup=False,
            )

    def action_cancel(self) -> None:
        self.dismiss(None)
