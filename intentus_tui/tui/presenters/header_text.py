"""The header bar's two lines as plain styled parts: no Textual.

``HeaderBar`` assembles them into ``Content``; the start frame (``start_frame``) writes the
same lines before Textual is imported. A part is a text and its style (Textual style
words, ``$``-variables included), or a plain text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rich.cells import cell_len

from intentus_tui.core.sanitize import sanitize_line

Part = tuple[str, str]


@dataclass
class HeaderState:
    """Everything the header shows; the app replaces it and calls ``HeaderBar.show``."""

    directory: str = ""
    live: str = "live"  # live | paused | off | stopped
    pending: int = 0  # changes waiting while paused
    counts: Counter[str] = field(default_factory=Counter)
    scanned: int = 0
    total: int | None = None  # files found by the scan; None until they are counted
    scanning: bool = True
    problem: str | None = None  # why the directory could not be read
    marked: str | None = None  # short id marked as the left side of a diff
    shown: int | None = None  # rows after the view/filter, when that differs from all


def _progress_bar(done: int, total: int, width: int = 12) -> str:
    filled = round(width * done / total) if total else width
    return "█" * filled + "░" * (width - filled)


DIRECTORY: Part = ("", "")  # where the directory goes in the location line
MIN_DIRECTORY_CELLS = 12


def _keep_tail(text: str, width: int | None) -> str:
    """``text``, or ``…`` and as much of its end as fits in ``width`` cells (at least
    ``MIN_DIRECTORY_CELLS``; ``None``, before the first layout: all of it)."""
    if width is None:
        return text
    width = max(MIN_DIRECTORY_CELLS, width)
    if cell_len(text) <= width:
        return text
    tail = text[-(width - 1) :]
    while cell_len(tail) > width - 1:
        tail = tail[1:]
    return "…" + tail


def location_parts(s: HeaderState, width: int | None) -> list[Part]:
    """Where we are, whether we watch, how far the index is: ``width`` cells at most
    (``None``, before the first layout: the whole directory)."""
    live = {
        "live": ("● live", "bold $success"),
        "paused": ("❚❚ paused", "bold $warning"),
        "off": ("○ not watching", "$text-muted"),
        "stopped": ("✗ watching stopped", "bold $error"),
    }[s.live]
    parts: list[Part] = [
        (" intentus-tui ", "bold $text-accent"),
        ("▸ ", "$text-muted"),
        DIRECTORY,
        ("  ", ""),
        live,
    ]
    if s.live == "paused" and s.pending:
        parts.append((f" ({s.pending:,} changes waiting)", "$warning"))
    if s.problem:
        parts += [("  ", ""), (f"cannot read the directory: {s.problem}", "bold $error")]
    elif s.scanning:
        if s.total is None:
            text = f"indexing {s.scanned:,}…" if s.scanned else "listing files…"
            parts += [("  ", ""), (text, "$text-muted")]
        else:
            bar = _progress_bar(s.scanned, s.total)
            parts += [("  ", ""), (f"indexing {s.scanned:,}/{s.total:,} {bar}", "$accent")]
    if s.marked:
        parts += [("  ", ""), ("marked for diff: ", "$text-muted"), (s.marked, "bold $secondary")]
    # The directory gets what the rest leaves: a long path must not wrap the line and
    # push the counts and the progress indicator out of the two lines.
    rest = sum(cell_len(text) for text, _ in parts)  # the directory's placeholder is empty
    room = width - rest if width else None
    directory = _keep_tail(sanitize_line(s.directory), room)
    return [(directory, "bold") if p is DIRECTORY else p for p in parts]


def counts_parts(state: HeaderState) -> list[Part]:
    """How many executions, and how many of each state."""
    counts = state.counts
    total = sum(counts.values())
    noun = "execution" if total == 1 else "executions"
    parts: list[Part] = [(f" {total:,} {noun}", "bold")]
    if state.shown is not None and state.shown != total:
        parts.append((f" ({state.shown:,} shown)", "$text-muted"))

    def add(count: int, label: str, style: str) -> None:
        if count:
            parts.extend((("  ", ""), (f"{count:,} {label}", style)))

    add(counts["replayable"], "replayable", "$success")
    reasons = sorted(
        ((k.split(":", 1)[1], n) for k, n in counts.items() if k.startswith("not_replayable:")),
        key=lambda item: (-item[1], item[0]),
    )
    not_replayable = sum(n for _, n in reasons)
    if not_replayable:
        detail = ", ".join(f"{n:,} {sanitize_line(reason)}" for reason, n in reasons[:3])
        more = ", …" if len(reasons) > 3 else ""
        add(not_replayable, f"not replayable ({detail}{more})", "$warning")
    add(counts["incomplete"], "incomplete", "$warning")
    add(counts["corrupted"], "corrupted", "$error")
    add(counts["in_flight"], "in flight (WAL only)", "$accent")
    return parts
