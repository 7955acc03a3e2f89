"""What one execution-list row says, cell by cell: pure text, no Textual.

``ExecutionList`` styles these cells into strips; the start frame (``start_frame``) draws
the same rows before Textual is even imported, so both show a row the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.cells import cell_len

from intentus_tui.core.model import (  # display_id: the presenters' short id too
    ExecutionSummary,
    Integrity,
    LoadStatus,
    Outcome,
    ReplayCode,
    Verdict,
    display_id,
)
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timestamps import utc_text
from intentus_tui.core.verdict import verdict_of
from intentus_tui.render.cells import fit, fit_middle
from intentus_tui.tui.presenters.list_groups import (
    GROUP_SHORT_TITLES,
    GROUP_TITLES,
    WRITING_TITLE,
    Group,
)
from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_order import Sort
from intentus_tui.tui.presenters.list_search import UNSHOWN_PARTS
from intentus_tui.tui.presenters.verdict_cells import (  # the list's cells: theirs too
    BADGE_MARK_WIDTH,
    BADGE_WIDTH,
    INTEGRITY_CELLS,
    INTEGRITY_MARK_WIDTH,
    INTEGRITY_WIDTH,
    OUTCOME_BADGES,
    REPLAY_MARK_WIDTH,
    REPLAY_WIDTH,
    UNTRUSTED_BADGE,
    WRITING_BADGE,
    integrity_cell,
    outcome_badge,
    replay_cell,
)

# A cell: its text (exactly as wide as its column) and its component class (or None).
Cell = tuple[str, str | None]

MIN_ID_WIDTH = 8
MAX_ID_WIDTH = 16
# The cells a copy's cut file name keeps of its beginning (the id's first letters), and of
# its end: what tells copies apart (``trunc.json``, `` (1).json``), kept first when the
# column is narrow (the id is known from the other rows of its group).
COPY_HEAD = 8
COPY_TAIL = 10
ATTEMPTS_WIDTH = 2
CREATED_WIDTH = 19
COMPACT_CREATED_WIDTH = 14
MIN_INTENT_WIDTH = 12
COPY_INTENT_KEPT = 6  # "Class…": what a copy's file name in the id column leaves the intent


def state_badge(summary: ExecutionSummary, writing: bool = False) -> tuple[str, str]:
    """The outcome badge of ``summary``'s verdict."""
    return outcome_badge(verdict_of(summary), writing)


# What the list's marks mean, section by section (the help screen shows it).
_OUTCOME_MEANINGS = {
    Outcome.SUCCEEDED: "the final response is a success",
    Outcome.FAILED: "the final response (or the write-ahead log) says it failed",
    Outcome.IN_FLIGHT: "never finished: crashed, or still running",
    Outcome.UNKNOWN: "nothing believable says what happened (a damaged file, a contradiction)",
}
_INTEGRITY_MEANINGS = {
    Integrity.VERIFIED: "the envelope (or the write-ahead log's chain) hashes as recorded",
    Integrity.BENIGN: "the hash differs for a harmless reason that reproduces it exactly",
    Integrity.TAMPERED: (
        "the hash differs with no harmless story, the record contradicts itself, or (in a "
        "bundle) its bytes are not those the manifest sealed"
    ),
    Integrity.UNVERIFIABLE: "nothing to check against: no hash recorded, a damaged file",
    Integrity.CHAIN_BROKEN: "the write-ahead log's hash chain breaks",
}
_REPLAY_MEANINGS = {
    ReplayCode.REPLAYABLE: "the recorded final response can be replayed",
    ReplayCode.EXECUTION_INCOMPLETE: "no final response was recorded",
    ReplayCode.RECORDING_FAILURE: "a final response exists but was not recorded properly",
    ReplayCode.MANUALLY_INVALIDATED: "invalidated by an operator, not damaged",
    ReplayCode.MARKED_NOT_REPLAYABLE: "the writer marked it not replayable for another reason",
    ReplayCode.RECORD_CORRUPTED: "the file is damaged, not a record, malformed, or unreadable",
    ReplayCode.NO_RECORD: "known only from its write-ahead log: no record file",
    ReplayCode.UNTRUSTED: "the evidence fails its check: investigate first",
    ReplayCode.UNCHECKED: "too large to check in the listing: open it to check",
}


def legend() -> list[tuple[str, list[tuple[str, str]]]]:
    """Each mark of a list row and what it means, by column: id, outcome, integrity, replay."""
    outcome = [(OUTCOME_BADGES[o][0], meaning) for o, meaning in _OUTCOME_MEANINGS.items()]
    outcome.append((UNTRUSTED_BADGE[0], "tampered or chain broken: believe nothing in it"))
    outcome.append((WRITING_BADGE[0], "a damaged file that just changed: being written"))
    outcome.append(("✓ ✗ ◌ ? ⚠ alone", "the same, when the row is narrow"))
    integrity = [
        (f"{INTEGRITY_CELLS[i][0]} ({INTEGRITY_CELLS[i][1]})", meaning)
        for i, meaning in _INTEGRITY_MEANINGS.items()
    ]
    replay = [
        (replay_cell(code, REPLAY_WIDTH)[0], meaning) for code, meaning in _REPLAY_MEANINGS.items()
    ]
    replay.append(("↺ or ✗ alone", "replayable or not, when the row is narrow"))
    ids = [
        ("e3151288", "a UUID's first 8 characters; other ids whole"),
        (
            "aaaaaaaa.json",
            "its id is in more than one file (a copy), or its file is not named after it: "
            "the row names its file",
        ),
    ]
    return [
        ("Id: which execution", ids),
        ("Outcome: what happened", outcome),
        ("Integrity: can the record be believed (narrow rows: the mark)", integrity),
        ("Replay: can it be replayed, or why not", replay),
    ]


ROOT_WIDTH = 12  # the root column (several roots only): a label's first cells
MIN_ROOT_WIDTH = 4  # ... on a narrow list, where it gives way to the verdict's marks
NARROW_INTENT_WIDTH = 2  # the intent on the narrowest row: "C…"


def id_width_for(summaries: list[ExecutionSummary], current: int = MIN_ID_WIDTH) -> int:
    """The id column's width once ``summaries`` are shown: it only grows, up to a limit."""
    if not summaries:
        return current
    longest = max(len(display_id(s.execution_id)) for s in summaries)
    return min(MAX_ID_WIDTH, max(current, longest))


def root_width_for(summaries: Iterable[ExecutionSummary], current: int = 0) -> int:
    """The root column's width for ``summaries`` (several roots): their longest label, up
    to ``ROOT_WIDTH``, never less than ``current``."""
    longest = max((cell_len(s.root) for s in summaries if s.root), default=0)
    return max(current, min(ROOT_WIDTH, longest))


def root_label(label: str, width: int) -> str:
    """A root's label in ``width`` cells, sanitized, cut in its middle when too long: two
    roots' labels often share their start and differ at their end (``127.0.0.1`` and
    ``127.0.0.1#2``, two paths on one host, both read ``127.0.0…`` cut at the end)."""
    return fit_middle(sanitize_line(label), width, max(1, (width - 1) // 2))


def copy_label(summary: ExecutionSummary, width: int = MAX_ID_WIDTH) -> str:
    """The id cell of an execution whose id another file holds too (a copy of a record
    keeps the id inside it): its file's name, sanitized, cut in its middle when too long
    (``e3151…trunc.json``): copies' names begin with the id they share and differ at their
    end (``.trunc.json``, `` (1).json``); cut at its end, two copies read the same. A narrow
    column keeps ``COPY_TAIL`` cells of the end before the head (``4…trunc.json``)."""
    return file_label(summary.file_name, width)


def file_label(name: str, width: int = MAX_ID_WIDTH) -> str:
    """A file's name (``copy_label``'s) in ``width`` cells, sanitized, cut in its middle."""
    name = sanitize_line(name)
    return fit_middle(name, width, max(1, min(COPY_HEAD, width - 1 - COPY_TAIL)))


def copies_width(copies: Iterable[ExecutionSummary]) -> int:
    """The cells the file names of ``copies`` want in the id column, up to
    ``MAX_ID_WIDTH`` (longer names are cut, see ``copy_label``); 0 with no copies."""
    longest = max((cell_len(sanitize_line(s.file_name)) for s in copies), default=0)
    return min(MAX_ID_WIDTH, longest)


def id_column_width(id_width: int, names_width: int, width: int) -> int:
    """The id column of rows ``width`` cells wide: as wide as the ids (``id_width``), wider
    for the file names of copies (``names_width``) only as far as the intent keeps
    ``COPY_INTENT_KEPT`` cells beside the verdict's marks (at 80 columns the list is narrow,
    its rows show marks: counted as words, a copy's name kept only ``.json`` of its end)."""
    if names_width <= id_width:
        return id_width
    room = width - _LAYOUTS[-1].fixed(0) - COPY_INTENT_KEPT
    return max(id_width, min(names_width, room))


def created_cell(created: str, compact: bool = False) -> str:
    """``2026-01-05 10:00:00`` (or ``01-05 10:00:00``) from an ISO timestamp, in UTC as
    every screen and the command line show it, else as written."""
    if not created.endswith(("+00:00", "Z")):  # another offset, or none: made UTC first
        created = utc_text(created)
    if len(created) >= 19 and created[10] == "T":
        return f"{created[5 if compact else 0 : 10]} {created[11:19]}"
    return created


class Columns(NamedTuple):
    """The widths of the columns a row has room for (0: left out)."""

    created: int
    attempts: int
    integrity: int
    replay: int
    badge: int = BADGE_WIDTH  # BADGE_MARK_WIDTH: the outcome's mark alone (``⚠``)

    def fixed(self, id_width: int) -> int:
        """Cells taken by everything but the intent."""
        width = 1 + id_width + 1 + self.badge + 1
        width += self.integrity + 1 if self.integrity else 0
        width += self.replay + 1 if self.replay else 0
        width += self.attempts + 2 if self.attempts else 0
        return width + (self.created + 1 if self.created else 0)


# Most to least room: the time goes first, then the attempt count, then the words of the
# integrity and replay answers shrink to marks, then the outcome's word: the verdict's three
# answers always stay, as marks (``⚠ #! ✗``, as the comparison picker shows them), and so
# does the intent. (The marks went before the outcome's word did: at 80 columns a row of an
# unverifiable, unreplayable record read "✓ succeeded" as a verified one's.)
_LAYOUTS = (
    Columns(CREATED_WIDTH, ATTEMPTS_WIDTH, INTEGRITY_WIDTH, REPLAY_WIDTH),
    Columns(COMPACT_CREATED_WIDTH, ATTEMPTS_WIDTH, INTEGRITY_WIDTH, REPLAY_WIDTH),
    Columns(COMPACT_CREATED_WIDTH, 0, INTEGRITY_WIDTH, REPLAY_WIDTH),
    Columns(0, ATTEMPTS_WIDTH, INTEGRITY_WIDTH, REPLAY_WIDTH),
    Columns(0, 0, INTEGRITY_WIDTH, REPLAY_WIDTH),
    Columns(0, 0, INTEGRITY_WIDTH, REPLAY_MARK_WIDTH),
    Columns(0, 0, INTEGRITY_MARK_WIDTH, REPLAY_MARK_WIDTH),
    Columns(0, 0, INTEGRITY_MARK_WIDTH, REPLAY_MARK_WIDTH, BADGE_MARK_WIDTH),
)


def columns_for(width: int, id_width: int) -> Columns:
    """The richest layout leaving the intent ``MIN_INTENT_WIDTH`` cells at ``width``."""
    for layout in _LAYOUTS:
        if width >= layout.fixed(id_width) + MIN_INTENT_WIDTH:
            return layout
    return _LAYOUTS[-1]


def root_room(width: int, id_width: int, root_width: int) -> int:
    """The cells the root column (its label and a space) takes of a row ``width`` cells
    wide: ``root_width``, less where the narrowest row (the verdict's three marks and the
    intent cut to ``C…``) would run past the list's edge, cutting its replay mark; never
    below ``MIN_ROOT_WIDTH`` cells of label (``inc…``). Alike for every row: aligned."""
    spare = width - _LAYOUTS[-1].fixed(id_width) - NARROW_INTENT_WIDTH
    return max(MIN_ROOT_WIDTH + 1, min(root_width, spare))


def row_cells(
    summary: ExecutionSummary,
    width: int,
    id_width: int,
    *,
    writing: bool = False,
    verdict: Verdict | None = None,
    copy: bool = False,
    names_width: int = 0,
    root_width: int = ROOT_WIDTH,
) -> list[Cell]:
    """The cells of an execution's row, ``width`` cells in all: its id, the verdict's three
    answers (outcome, integrity, replayability), attempts, intent, time. A narrow row keeps
    at least the id, the three answers as marks and a cut intent: columns drop, and words
    turn to marks, before the intent is cramped.
    ``copy``: its id is in more than one file, so the row names its file instead;
    ``names_width``: what the file names of such rows want (``copies_width``), given to
    every row so that the columns stay aligned; ``root_width``: the same for the root's
    label, with several roots (``root_width_for``)."""
    verdict = verdict_of(summary) if verdict is None else verdict
    root_width = root_width + 1 if summary.root else 0  # several roots: aligned labels
    if root_width:  # a long label gives way to the verdict's marks and a cut intent
        root_width = root_room(width, id_width, root_width)
    if names_width:
        id_width = id_column_width(id_width, names_width, width - root_width)
    columns = columns_for(width - root_width, id_width)
    if not summary.created:
        columns = columns._replace(created=0)  # no time to show: the intent gets the room
    intent_width = max(NARROW_INTENT_WIDTH, width - columns.fixed(id_width) - root_width)
    badge, badge_class = outcome_badge(verdict, writing)
    # No intent: a broken file says what is wrong; a whole one has nothing to say ("-", as
    # ``inspect --list``), not its load message ("Record parsed"); nor has a file never
    # read ("Cannot r…"): why is the verdict's.
    quiet = summary.load_status is LoadStatus.OK or summary.load_status.not_read
    intent = summary.intent or ("-" if quiet else summary.message)
    cells: list[Cell] = [(" ", None)]
    if root_width:
        cells.append((root_label(summary.root, root_width - 1) + " ", "execution-list--dim"))
    cells += [
        (copy_label(summary, id_width), "execution-list--file")
        if copy
        else (fit(display_id(summary.execution_id), id_width), "execution-list--id"),
        (" ", None),
        (fit(badge, BADGE_WIDTH) if columns.badge == BADGE_WIDTH else badge[0], badge_class),
        (" ", None),
    ]
    if columns.integrity:
        text, style = integrity_cell(verdict.integrity, columns.integrity)
        cells += [(fit(text, columns.integrity), style), (" ", None)]
    if columns.replay:
        text, style = replay_cell(verdict.replay, columns.replay)
        cells += [(fit(text, columns.replay), style), (" ", None)]
    if columns.attempts:
        attempts = str(summary.attempts) if summary.attempts else "-"
        cells += [
            (fit(attempts, columns.attempts, align_right=True), "execution-list--dim"),
            ("  ", None),
        ]
    cells.append((fit(intent, intent_width), None if summary.intent else "execution-list--dim"))
    if columns.created:
        created = created_cell(summary.created, compact=columns.created < CREATED_WIDTH)
        cells += [(" ", None), (fit(created, columns.created), "execution-list--dim")]
    return cells


def group_header_text(group: Group, size: int, width: int, writing: int = 0) -> str:
    """A group's header row: ``── Failed (54,095) ─────``, ``width`` cells. Where the
    title does not fit, its short form is shown (``── Untrusted (4) ``), else it is cut and
    the count kept (``── Untrus… (4) ``): what a narrow list lost was the count.

    ``writing``: how many of its rows say "… writing" (a record caught mid-write, grouped
    by what its half says until it is whole or has been still a while): a group of those
    alone is titled as they are (``── Being written (1) ``), not "Outcome unknown"; else
    its count says how many (``── Outcome unknown (3, 1 being written) ``)."""
    count = f" ({size:,}) "
    title = GROUP_TITLES[group]
    if 0 < writing < size:
        count = f" ({size:,}, {writing:,} being written) "
    elif writing and writing >= size:
        title = WRITING_TITLE
    if len(f"── {title}{count}") > width:
        title = GROUP_SHORT_TITLES.get(group, title)
    text = f"── {title}{count}"
    if len(text) > width and width > len(count) + 4:
        text = fit(f"── {title}", width - len(count)) + count
    return fit(text + "─" * max(0, width - len(text)), width)


def list_subtitle(
    model: ListModel,
    sorting: Sort | None = None,
    filtering: bool = False,
    width: int | None = None,
) -> str:
    """The list border's subtitle: how it is shown and sorted (``sorting``: the sort
    being made, the rows still in the one before; ``filtering``: a query waits for the
    searched texts, the rows still unfiltered). On a border ``width`` cells wide where it
    does not fit, the short form ("failures first · newest first", "failed only · by
    verdict"): the sort stays in sight."""
    full = _subtitle(model.view.label, model.sort.label, sorting, filtering, "sort: ")
    if width is None or cell_len(full) <= width - _BORDER_CELLS:
        return full
    view = model.view.short or model.view.label  # "failures first, by verdict": its name
    return _subtitle(view, model.sort.short or model.sort.label, sorting, filtering, "")


LIST_TITLE = "Executions"


# What the list's title calls each part no row shows (``list_search.UNSHOWN_PARTS``).
_UNSHOWN_WORDS = {"agent": "an agent", "id": "the full id", "file": "the file name"}


def list_title(model: ListModel, width: int | None = None) -> str:
    """The list border's title: what it lists and, while the filter finds some of the
    executions shown by what no row shows alone (an agent's name, the rest of an id cut
    to 8 characters, the file's name, the source), how many and by which (those rows seem
    not to match what was typed). The longest form that fits a border ``width`` cells
    wide."""
    found = model.found_unshown()
    if not found:
        return LIST_TITLE
    shown = model.shown_count
    parts = [UNSHOWN_PARTS[mark] for mark in model.unshown_parts()]
    words = [_UNSHOWN_WORDS.get(part, f"the {part}") for part in parts]
    by = " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"
    forms = (
        f"{LIST_TITLE} · {found:,} of {shown:,} matched by {by}, not shown in the rows",
        f"{LIST_TITLE} · {found:,} of {shown:,} matched by {by}",
        f"{LIST_TITLE} · {found:,} by {by}",
        f"{LIST_TITLE} · {found:,} by {'/'.join(parts)}",
        f"{found:,} by {'/'.join(parts)}",
    )
    fitting = (f for f in forms if width is None or cell_len(f) <= width - _BORDER_CELLS)
    return next(fitting, forms[-1])


def view_note(model: ListModel) -> str:
    """The toast on choosing a view: its label and how many executions it shows, the rows
    the header counts as shown (with no filter typed, the view's own count: what the header
    says of it, as "4 succeeded")."""
    shown = model.shown_count
    noun = "execution" if shown == 1 else "executions"
    note = f"View: {model.view.label} · {shown:,} {noun}"
    if model.query.strip():
        note += " matches the filter" if shown == 1 else " match the filter"
    return note


_BORDER_CELLS = 6  # each side of a border's subtitle: its corner, a rule cell and a space


def _subtitle(view: str, sort: str, sorting: Sort | None, filtering: bool, said: str) -> str:
    # Before the sort: a narrow list's border cuts the end of its subtitle.
    if filtering:
        view = f"{view} · filtering…"
    if sorting is not None:
        return f"{view} · sorting: {sorting.label}…"
    return f"{view} · {said}{sort}"
