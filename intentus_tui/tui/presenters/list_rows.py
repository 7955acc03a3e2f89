"""What one execution-list row says, cell by cell: pure text, no Textual.

``ExecutionList`` styles these cells into strips; the start frame (``start_frame``) draws
the same rows before Textual is even imported, so both show a row the same way.
"""

from __future__ import annotations

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.tui.presenters.list_model import GROUP_TITLES, Group, ListModel, group_of
from intentus_tui.tui.widgets.cells import fit

# A cell: its text (exactly as wide as its column) and its component class (or None).
Cell = tuple[str, str | None]

_BADGES = {
    Group.REPLAYABLE: ("✓ replayable", "execution-list--replayable"),
    Group.INCOMPLETE: ("… incomplete", "execution-list--incomplete"),
    Group.IN_FLIGHT: ("◌ in flight", "execution-list--in-flight"),
    Group.CORRUPTED: ("✗ corrupted", "execution-list--corrupted"),
}
_SHORT_REASONS = {
    "manually_invalidated": "invalidated",
    "execution_incomplete": "incomplete",
    "recording_failure": "rec.failure",
    "record_corrupted": "corrupted",
    "marked not replayable (no reason given)": "no reason",
}
_HASH_BADGES = {
    HashStatus.MATCH: ("# ok", "execution-list--hash-match"),
    HashStatus.MISMATCH: ("# BAD", "execution-list--hash-mismatch"),
    HashStatus.UNVERIFIABLE: ("# ?", "execution-list--hash-unverifiable"),
}
MIN_ID_WIDTH = 8
MAX_ID_WIDTH = 16
BADGE_WIDTH = 13
HASH_WIDTH = 5
ATTEMPTS_WIDTH = 2
CREATED_WIDTH = 19
COMPACT_CREATED_WIDTH = 14
MIN_INTENT_WIDTH = 12


def state_badge(summary: ExecutionSummary, writing: bool = False) -> tuple[str, str]:
    """The state badge text and its component class."""
    if writing:
        return "… writing", "execution-list--incomplete"
    group = group_of(summary)
    if group is Group.NOT_REPLAYABLE:
        reason = summary.replay_reason or "not replayable"
        return f"✗ {_SHORT_REASONS.get(reason, reason)}", "execution-list--not-replayable"
    if group is Group.CORRUPTED and summary.load_status.value == "salvaged":
        return "✗ salvaged", "execution-list--corrupted"
    return _BADGES[group]


def display_id(execution_id: str) -> str:
    """A UUID's first 8 characters (unique enough in practice); other ids as they are."""
    if len(execution_id) == 36 and execution_id.count("-") == 4:
        return execution_id[:8]
    return execution_id


def id_width_for(summaries: list[ExecutionSummary], current: int = MIN_ID_WIDTH) -> int:
    """The id column's width once ``summaries`` are shown: it only grows, up to a limit."""
    if not summaries:
        return current
    longest = max(len(display_id(s.execution_id)) for s in summaries)
    return min(MAX_ID_WIDTH, max(current, longest))


def created_cell(created: str, compact: bool = False) -> str:
    """``2026-01-05 10:00:00`` (or ``01-05 10:00:00``) from an ISO timestamp, else as written."""
    if len(created) >= 19 and created[10] == "T":
        return f"{created[5 if compact else 0 : 10]} {created[11:19]}"
    return created


def _optional_columns(width: int, id_width: int) -> tuple[int, bool]:
    """(created column width or 0, show the hash badge): dropped before the intent gets cramped."""
    base = 1 + id_width + 1 + BADGE_WIDTH + 1 + ATTEMPTS_WIDTH + 2 + MIN_INTENT_WIDTH
    for created, show_hash in (
        (CREATED_WIDTH, True),
        (COMPACT_CREATED_WIDTH, True),
        (0, True),
        (0, False),
    ):
        need = base + (created + 1 if created else 0) + (HASH_WIDTH + 1 if show_hash else 0)
        if width >= need:
            return created, show_hash
    return 0, False


def row_cells(
    summary: ExecutionSummary, width: int, id_width: int, *, writing: bool = False
) -> list[Cell]:
    """The cells of an execution's row, ``width`` cells in all (a narrow row: at least the
    id, the badge and a cut intent; columns are dropped before the intent is cramped)."""
    badge, badge_class = state_badge(summary, writing)
    hash_text, hash_class = _HASH_BADGES[summary.hash_status]
    created_width, show_hash = _optional_columns(width, id_width)
    if not summary.created:
        created_width = 0  # no time to show: the intent (or the problem) gets the room
    fixed = 1 + id_width + 1 + BADGE_WIDTH + 1 + ATTEMPTS_WIDTH + 2
    fixed += (HASH_WIDTH + 1) if show_hash else 0
    fixed += (created_width + 1) if created_width else 0
    intent_width = max(4, width - fixed)
    attempts = str(summary.attempts) if summary.attempts else "-"
    intent = summary.intent or summary.message  # a broken file says what is wrong
    cells: list[Cell] = [
        (" ", None),
        (fit(display_id(summary.execution_id), id_width), "execution-list--id"),
        (" ", None),
        (fit(badge, BADGE_WIDTH), badge_class),
        (" ", None),
    ]
    if show_hash:
        cells += [(fit(hash_text, HASH_WIDTH), hash_class), (" ", None)]
    cells += [
        (fit(attempts, ATTEMPTS_WIDTH, align_right=True), "execution-list--dim"),
        ("  ", None),
        (fit(intent, intent_width), None if summary.intent else "execution-list--dim"),
    ]
    if created_width:
        created = created_cell(summary.created, compact=created_width < CREATED_WIDTH)
        cells += [(" ", None), (fit(created, created_width), "execution-list--dim")]
    return cells


def group_header_text(group: Group, size: int, width: int) -> str:
    """A group's header row: ``── Replayable (54,095) ─────``, ``width`` cells."""
    text = f"── {GROUP_TITLES[group]} ({size:,}) "
    return fit(text + "─" * max(0, width - len(text)), width)


def list_subtitle(model: ListModel) -> str:
    """The list border's subtitle: how it is shown and sorted."""
    return f"{model.view.label} · sort: {model.sort.label}"
