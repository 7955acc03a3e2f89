"""The header bar's two lines as plain styled parts: no Textual.

``HeaderBar`` assembles them into ``Content``; the start frame (``start_frame``) writes the
same lines before Textual is imported. A part is a text and its style (Textual style
words, ``$``-variables included), or a plain text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.cells import cell_len

from intentus_tui.core.model import Integrity
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters.list_groups import Group, VerdictKind
from intentus_tui.tui.presenters.list_model import (
    NOT_REPLAYABLE_GROUPS,
    SUCCEEDED_GROUPS,
    group_sizes,
    size_of,
)
from intentus_tui.tui.presenters.list_rows import COPY_TAIL, file_label

if TYPE_CHECKING:
    from intentus_tui.core.paths import RecordRoot

Part = tuple[str, str]


@dataclass
class HeaderState:
    """Everything the header shows; the app replaces it and calls ``HeaderBar.show``."""

    directory: str = ""
    # ``directory`` is a name the opener gave ("bundle x.tar.gz (1 file differs …)"), not a
    # path: too long, it is cut at its end (a path keeps its end, the most specific part).
    named: bool = False
    live: str = "live"  # live | paused | off | stopped
    # Why watching stopped, when watched directories are gone or cannot be listed.
    trouble: str | None = None
    trouble_names: tuple[str, ...] = ()  # the directories it names: shortened to fit
    pending: int = 0  # changes waiting while paused
    # executions per verdict (outcome, integrity, replayability codes)
    counts: Counter[VerdictKind] = field(default_factory=Counter)
    # Of those, the records caught mid-write (their rows say "… writing"), by the group
    # their codes put them in: counted as being written, not as what their half says.
    writing: Counter[Group] = field(default_factory=Counter)
    scanned: int = 0
    total: int | None = None  # files found by the scan; None until they are counted
    scanning: bool = True
    problem: str | None = None  # why the directory could not be read
    marked: str | None = None  # short id (as the list shows it) marked as A of a diff
    marked_removed: bool = False  # its file was removed since
    # ``marked`` is its file's name: another file holds its id (a copy), told apart by its end.
    marked_file: bool = False
    following: bool = False  # follow mode: the newest execution is selected as it arrives
    shown: int | None = None  # rows after the view/filter, when that differs from all
    read_only: str | None = None  # why nothing may be written here (a bundle, ...)
    # Several roots: what is said of each ("LABEL COUNT"), ``directory`` being them joined.
    # Too long, each is cut at its start alike (its label's end and its count are kept).
    roots: tuple[str, ...] = ()

    @classmethod
    def opening(cls, root: RecordRoot, label: str | None, named: bool, watch: bool) -> HeaderState:
        """The header of the app opening ``root``: its records directory, or ``label`` (a
        path in its place, or a name when ``named``)."""
        # Logs and no records directory yet: the layout holding both, not a path that is
        # not there.
        shown = root.records_dir.parent if root.records_to_come else root.records_dir
        return cls(
            directory=label if label is not None else str(shown),
            named=named and label is not None,
            live="live" if watch else "off",
            read_only=root.read_only,
        )


def _progress_bar(done: int, total: int, width: int = 12) -> str:
    filled = round(width * done / total) if total else width
    return "█" * filled + "░" * (width - filled)


DIRECTORY: Part = ("", "")  # where the directory goes in the location line
MIN_DIRECTORY_CELLS = 12
MIN_ROOT_CELLS = 6  # each of several roots, cut to share the line


# A layout's end, and what is left of it when it is cut out.
_LAYOUT_ENDS = (("/.intentusnet/records", "/…"), ("/.intentusnet/wal", "/…/wal"))
_PROJECT_CELLS = 4  # of the project's directory, at least, when its layout is cut out


def _keep(text: str, width: int | None, *, head: bool, least: int = MIN_DIRECTORY_CELLS) -> str:
    """``text``, or as much of its start (``head``: a name) or of its end (a path) as fits
    in ``width`` cells, with ``…`` where it is cut (at least ``least`` cells; ``None``,
    before the first layout: all of it)."""
    if width is None:
        return text
    width = max(least, width)
    if cell_len(text) <= width:
        return text
    if not head:
        # ".../.intentusnet/records" ends every root's path alike: what tells one from
        # another is the project's directory before it ("…/demo/…", not
        # "…ntusnet/records").
        for layout, tail in _LAYOUT_ENDS:
            project = text.removesuffix(layout)
            room = width - cell_len(tail)
            if project != text and project and room >= _PROJECT_CELLS:
                return _keep(project, room, head=False, least=room) + tail
    kept = text[: width - 1] if head else text[-(width - 1) :]
    while cell_len(kept) > width - 1:
        kept = kept[:-1] if head else kept[1:]
    return kept.rstrip() + "…" if head else "…" + kept


_ROOTS_JOIN = " · "
# A root's kind after its count (``RootSet.header_parts``): "demo 40 (remote) ⚠ …".
_ROOT_KIND = re.compile(r" \((?:bundle|remote|read-only)\)(?= ⚠ |$)")


def _keep_each(roots: list[str], width: int | None) -> str:
    """The roots joined in ``width`` cells: when they do not fit, each is cut at its start
    to an equal share (a root shorter than its share gives the rest to the others), so
    every root keeps its label's end (where names sharing a prefix differ) and its count;
    the first is not cut away for the last to show whole. A root that says what went wrong
    keeps its start (its label and FAILED) and is cut at its end."""
    joined = _ROOTS_JOIN.join(roots)
    if width is None or cell_len(joined) <= width:
        return joined
    # What kind each root is gives way before the labels that tell them apart and their
    # counts: "…0 (remote) · …4 (remote)" had kept neither.
    roots = [_ROOT_KIND.sub("", text, count=1) for text in roots]
    joined = _ROOTS_JOIN.join(roots)
    if cell_len(joined) <= width:
        return joined
    room = max(0, width - cell_len(_ROOTS_JOIN) * (len(roots) - 1))
    shares = {index: cell_len(text) for index, text in enumerate(roots)}
    left = dict(shares)
    while left:  # the shortest take what they need; the others share what remains
        share = room // len(left)
        fitting = [index for index, cells in left.items() if cells <= share]
        if not fitting:
            for index in left:
                shares[index] = max(MIN_ROOT_CELLS, share)
            break
        for index in fitting:
            room -= left.pop(index)
    return _ROOTS_JOIN.join(
        _keep(text, shares[index], head=_says_a_problem(text), least=MIN_ROOT_CELLS)
        for index, text in enumerate(roots)
    )


def _says_a_problem(root: str) -> bool:
    """Does a root's text end with why it failed (``RootSet.header_parts``)? Then its end
    is what is cut: ``nonexist FAILED: no such direc…``, not ``…uch directory: …``."""
    return " FAILED: " in root or " ⚠ " in root


_LOCATION_CELLS = 22  # " intentus-tui ▸ " and what separates the parts after the directory


def _fit_names(text: str, names: tuple[str, ...], room: int | None) -> str:
    """``text`` with each of ``names`` in it cut at its start (``…/records``) to fit in
    ``room`` cells: the words after them (``permission denied``, ``gone``) stay in sight."""
    over = cell_len(text) - room if room is not None else 0
    for name in sorted(set(names), key=len, reverse=True):
        if over <= 0:
            break
        kept = max(MIN_DIRECTORY_CELLS, len(name) - over)
        if kept < len(name):
            text = text.replace(name, "…" + name[len(name) - kept + 1 :])
            over -= len(name) - kept
    return text


def location_parts(s: HeaderState, width: int | None) -> list[Part]:
    """Where we are, whether we watch, how far the index is: ``width`` cells at most
    (``None``, before the first layout: the whole directory)."""
    live = {
        "live": ("● live", "bold $success"),
        "paused": ("❚❚ paused", "bold $warning"),
        "off": ("○ not watching", "$text-muted"),
        "stopped": ("✗ watching stopped", "bold $error"),
    }[s.live]
    if s.live == "stopped" and s.trouble:  # what stopped it, in the one line
        live = (f"✗ {sanitize_line(s.trouble)}", "bold $error")
        room = width - _LOCATION_CELLS - MIN_DIRECTORY_CELLS if width else None
        live = (_fit_names(live[0], s.trouble_names, room), live[1])
    parts: list[Part] = [
        (" intentus-tui ", "bold $text-accent"),
        ("▸ ", "$text-muted"),
        DIRECTORY,
        ("  ", ""),
        live,
    ]
    if s.live == "paused" and s.pending:
        # Beside the pause they wait for, before the follow mark ("⇣ follow (27 changes
        # waiting)" read as if following had them waiting).
        changes = "change" if s.pending == 1 else "changes"
        parts.append((f" ({s.pending:,} {changes} waiting)", "$warning"))
    if s.read_only:
        parts += [("  ", ""), ("read-only", "bold $warning")]
    if s.following:
        parts.append(("  ⇣ follow", "bold $accent"))
    if s.problem:
        parts += [("  ", ""), (f"cannot read the directory: {s.problem}", "bold $error")]
    elif s.scanning:
        # The rows shown were read (the first ones before the scan reached them): the
        # count indexed is never less than the executions the counts line says so far.
        done = max(s.scanned, sum(s.counts.values()))
        if s.total is not None:
            done = min(done, s.total)
        if s.total is None:
            # Rows are shown before the files are counted (a big directory's first ones).
            text = f"indexing {done:,} (counting files…)" if done else "listing files…"
            parts += [("  ", ""), (text, "$text-muted")]
        else:
            bar = _progress_bar(done, s.total)
            parts += [("  ", ""), (f"indexing {done:,}/{s.total:,} {bar}", "$accent")]
    if s.marked:
        removed = [(" (removed)", "bold $error")] if s.marked_removed else []
        marked = s.marked
        if s.marked_file and width is not None:
            # Cut in its middle, as its list row is: copies of one record share the id
            # their names begin with and differ at their end (``.copy.json``).
            label = "  marked for diff: "
            rest = sum(cell_len(text) for text, _ in [*parts, *removed]) + cell_len(label)
            room = max(width - rest - MIN_DIRECTORY_CELLS, COPY_TAIL + 2)
            if cell_len(marked) > room:
                marked = file_label(marked, room)
        parts += [("  ", ""), ("marked for diff: ", "$text-muted"), (marked, "bold $secondary")]
        parts += removed
    # The directory gets what the rest leaves: a long path must not wrap the line and
    # push the counts and the progress indicator out of the two lines.
    rest = sum(cell_len(text) for text, _ in parts)  # the directory's placeholder is empty
    room = width - rest if width else None
    if len(s.roots) > 1:
        directory = _keep_each([sanitize_line(root) for root in s.roots], room)
    else:
        directory = _keep(sanitize_line(s.directory), room, head=s.named)
    return fit([(directory, "bold") if p is DIRECTORY else p for p in parts], width)


# The order and words the counts line uses for what needs attention.
_ATTENTION = (
    ("untrusted", "bold $error"),
    ("unknown", "$error"),
    ("being written", "$warning"),  # mid-write: listed among the unknown, said as its row
    ("failed", "$error"),
    ("in flight", "$warning"),
)
_UNTRUSTED = {Integrity.TAMPERED: "tampered", Integrity.CHAIN_BROKEN: "chain broken"}
_ATTENTION_WORDS = {
    Group.UNTRUSTED: "untrusted",
    Group.UNKNOWN: "unknown",
    Group.FAILED: "failed",
    Group.IN_FLIGHT: "in flight",
}


@dataclass
class VerdictTally:
    """The counts line's numbers, from the executions' verdict codes. Each is a group's
    count, or the groups' of a view (``size_of``): "4 succeeded" is the rows the
    "succeeded" view shows, "(1 not replayable)" those of "succeeded, not replayable"."""

    total: int = 0
    attention: Counter[str] = field(default_factory=Counter)  # untrusted, unknown, ...
    untrusted: Counter[str] = field(default_factory=Counter)  # tampered, chain broken
    succeeded: int = 0
    not_replayable: int = 0  # of the successes
    benign: int = 0
    unverifiable: int = 0

    @classmethod
    def of(
        cls, counts: Mapping[VerdictKind, int], writing: Mapping[Group, int] | None = None
    ) -> VerdictTally:
        """``writing``: of ``counts``, the records being written, by group: said "being
        written" as their rows are, not "unknown" (still in the sum of what needs
        attention, as their group is at the top of the list)."""
        tally = cls(
            total=size_of(None, counts),
            succeeded=size_of(SUCCEEDED_GROUPS, counts),
            not_replayable=size_of(NOT_REPLAYABLE_GROUPS, counts),
        )
        for group, n in group_sizes(counts).items():
            if group in _ATTENTION_WORDS:
                being_written = min(n, (writing or {}).get(group, 0))
                tally.attention[_ATTENTION_WORDS[group]] += n - being_written
                tally.attention["being written"] += being_written
        for (_, integrity, _), n in counts.items():
            if n <= 0:
                continue
            if integrity in _UNTRUSTED:
                tally.untrusted[_UNTRUSTED[integrity]] += n
            tally.benign += n if integrity is Integrity.BENIGN else 0
            tally.unverifiable += n if integrity is Integrity.UNVERIFIABLE else 0
        return tally

    @property
    def needing_attention(self) -> int:
        return sum(self.attention.values())


def _cells(parts: list[Part]) -> int:
    return sum(cell_len(text) for text, _ in parts)


def fit(parts: list[Part], width: int | None) -> list[Part]:
    """``parts`` cut to ``width`` cells, ending in ``…`` where they were cut (``None``:
    all of them): a header line never wraps onto the next."""
    if width is None or _cells(parts) <= width:
        return parts
    kept: list[Part] = []
    room = max(width - 1, 0)  # a cell for the ellipsis
    for text, style in parts:
        if cell_len(text) <= room:
            kept.append((text, style))
            room -= cell_len(text)
            continue
        while text and cell_len(text) > room:
            text = text[:-1]
        kept.append((text.rstrip() + "…", style))
        break
    return kept


def counts_parts(state: HeaderState, width: int | None = None) -> list[Part]:
    """How many executions, how many need attention and why (untrusted, unknown, failed, in
    flight), how many succeeded, and the harmless integrity notes: what fits in ``width``
    cells (details go first: the total and what needs attention stay)."""
    tally = VerdictTally.of(state.counts, state.writing)
    noun = "execution" if tally.total == 1 else "executions"
    # While the index is still being made, every count is of what was read until now.
    so_far = " so far" if state.scanning and not state.problem and tally.total else ""
    parts: list[Part] = [(f" {tally.total:,} {noun}{so_far}", "bold")]
    if state.shown is not None and state.shown != tally.total:
        parts.append((f" ({state.shown:,} shown)", "$text-muted"))
    if not tally.total:
        return parts
    if tally.needing_attention:
        need = "needs" if tally.needing_attention == 1 else "need"
        parts.append((f" · {tally.needing_attention:,} {need} attention: ", "bold"))
    else:
        parts.append((" · nothing needs attention", "$success"))
    # Segments in display order, each with the rank at which it is dropped when the line
    # is too long (0: never): the harmless hash notes first, then the detail of the
    # successes, then the successes, then why the untrusted are untrusted.
    segments: list[tuple[int, list[Part]]] = [(0, parts)]
    first = True
    for word, style in _ATTENTION:
        count = tally.attention[word]
        if not count:
            continue
        segments.append((0, [("" if first else ", ", ""), (f"{count:,} {word}", style)]))
        first = False
        if word == "untrusted":
            why = ", ".join(f"{n:,} {w}" for w, n in sorted(tally.untrusted.items()))
            segments.append((4, [(f" ({why})", "$error")]))
    if tally.succeeded:
        segments.append((3, [(f" · {tally.succeeded:,} succeeded", "$success")]))
        if tally.not_replayable:
            segments.append((2, [(f" ({tally.not_replayable:,} not replayable)", "$warning")]))
    notes = [
        f"{n:,} {word}"
        for n, word in ((tally.benign, "benign"), (tally.unverifiable, "unverifiable"))
        if n
    ]
    if notes:
        segments.append((1, [(" · integrity: " + ", ".join(notes), "$text-muted")]))
    for rank in (1, 2, 3, 4):
        if width is None or _cells([p for _, seg in segments for p in seg]) <= width:
            break
        segments = [(r, seg) for r, seg in segments if r != rank]
    if (
        width is not None
        and tally.needing_attention
        and _cells([p for _, seg in segments for p in seg]) > width
    ):
        # Last, the sum goes (the reasons that follow add up to it): every reason stays in
        # sight at 80 columns rather than the last one being cut.
        parts[-1] = (" · attention: ", "bold")
    return fit([p for _, seg in segments for p in seg], width)
