"""What a comparison says in words: each side's title and verdict, the warning about an
untrusted side, the status line, the legend of its marks. Plain strings (sanitized); the
full-screen comparison and the Diff tab style them.

A side's verdict is the one its operand carries from the core (``Operand.verdict``, made as
every other screen's): it is shown, never made, here."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Literal

from rich.cells import cell_len

from intentus_tui.core.model import Verdict, recovered_mark
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.verist.verify import CHANGED_SINCE_SAVED
from intentus_tui.render.cells import clip_pair, fit
from intentus_tui.tui.presenters.execution_text import clip
from intentus_tui.tui.presenters.list_rows import (
    MAX_ID_WIDTH,
    display_id,
    file_label,
)
from intentus_tui.tui.presenters.verdict_cells import verdict_text, verdict_words

if TYPE_CHECKING:
    from intentus_tui.core.actions import Operand, SideBySide
    from intentus_tui.core.compare.aligned import SideRow

TITLE_CHARS = 120
SHORT_FILE_NAME = 24  # a snapshot's file name in a narrow title
WARNING_CHARS = 600  # a warning with both sides' reasons


def _short_id(operand: Operand) -> str | None:
    if operand.kind != "record":
        return None
    return display_id(str(operand.describe().get("execution_id") or operand.label))


def side_short_name(operand: Operand | None, label: str, by_file: bool = False) -> str:
    """A side in a few characters (the side pane's border): a record by its short id (its
    file's name, cut as the list's row cuts it, when ``by_file``: another file holds its
    id), a snapshot, a baseline or a run by what it is (a baseline was called a snapshot:
    ``46c1d247 vs snapshot``); two plain values by their ``label``. Sanitized."""
    if operand is None:
        return clip(label, MAX_ID_WIDTH)
    if by_file and operand.path is not None:
        return file_label(operand.path.name).rstrip()
    return clip(_short_id(operand) or operand.noun, MAX_ID_WIDTH)


def title_name(label: str, room: int) -> str:
    """A side's name on its own title line (``A: …``) in at most ``room`` cells: cut in its
    middle, keeping its end, where it is longer (``a17a47a9…b2d23.copy.json``). The line
    wrapped it mid-name instead: ``…-b21b9b9b2d23.cop`` on one row, ``y.json`` on the next.
    No room known yet (0): as it is. Sanitized."""
    if room <= 0 or cell_len(label) <= room:
        return label
    return file_label(label, max(room, MIN_TITLE_NAME)).rstrip()


NO_VALUE_HERE = "(nothing on this side)"  # a value only the other side has, in a panel
MIN_TITLE_NAME = 12  # a name is never cut shorter: its mark (``⚠ changed …``) wraps instead


RECORD_WORD = "execution "  # a record side's title starts so, where there is room


def side_titles(
    a: Operand, b: Operand, roots: tuple[str | None, str | None] = (None, None)
) -> tuple[list[str], list[str]]:
    """Each side's title, as a few versions, longest first (the screen shows the first that
    fits). ``roots``: the label of the root each side's file is in, when several roots are
    open: ``execution beta:681f325e · …``. Two records shown under one id in one root (copies
    of one record) also name their files, so that A and B can be told apart."""
    short = _short_id(a)
    copies = short is not None and short == _short_id(b) and roots[0] == roots[1]
    return (
        side_title_versions(a, with_file=copies, root=roots[0]),
        side_title_versions(b, with_file=copies, root=roots[1]),
    )


def changed_mark(operand: Operand | None) -> str:
    """``⚠ changed since it was saved`` for a snapshot or baseline whose content no longer
    hashes to what it recorded (its note says so), else ``""``: one form wherever a side is
    named (the full screen's title, the Diff tab's)."""
    if operand is None or operand.kind != "snapshot" or not operand.note:
        return ""
    return f"⚠ {CHANGED_SINCE_SAVED}"


def side_title_versions(
    operand: Operand, *, with_file: bool = False, root: str | None = None
) -> list[str]:
    """A side's title, ``execution 681f325e · ✓ succeeded · verified · ↺ yes`` (the verdict
    the record carries), ``snapshot pinned.json``, ``run r-2 (fork)`` (``with_file``, or a
    file not named after its id: ``execution 681f325e (copy.json) · …``; ``root``:
    ``execution beta:681f325e · …``), then
    shorter versions of it for a narrow screen: the word ``execution`` goes, the verdict is
    abbreviated; the root, the id and the verdict stay, and ``with_file`` the file's name
    (one named after the id: cut as the list's row cuts it)."""
    described = operand.describe()
    damaged = f" · {recovered_mark(operand.note)}" if operand.note else ""
    if operand.kind != "record":
        if operand.kind == "snapshot":
            # A snapshot has no damaged reading: its note says its hashes do not hold.
            damaged = f" · {changed_mark(operand)}" if operand.note else ""
            text = f"{operand.noun} {operand.label}"
            step = described.get("step_name")
            if step:
                text += f" · {described.get('workflow_id')}/{step}"
            versions = [text + damaged]
            if step:  # narrower: its whole name still, without its workflow and step
                versions.append(f"{operand.noun} {operand.label}{damaged}")
            if len(operand.label) > SHORT_FILE_NAME:  # a narrow screen: the name cut in its
                # middle, keeping the end that tells two snapshots of one execution apart
                # (cut at its end, each read `7809d8ed-7dba-4ec5-93f4…`), as the picker does
                short = file_label(operand.label, SHORT_FILE_NAME).rstrip()
                versions.append(f"{operand.noun} {short}{damaged}")
            return [clip(text, TITLE_CHARS) for text in versions]
        label = described.get("label")
        text = f"run {described.get('run_id')}" + (f" ({label})" if label else "")
        return [clip(text + damaged, TITLE_CHARS)]
    ident = str(described.get("execution_id") or operand.label)
    name = display_id(ident)
    if root:
        name = f"{root}:{name}"
    verdict = f" · {verdict_words(operand.verdict)}" if operand.verdict is not None else ""
    path = operand.path
    if path is not None and not with_file and path.stem == ident:
        path = None  # named after its id, and no copy beside: the id names it
    file = f" ({path.name})" if path is not None else ""
    versions = [f"{RECORD_WORD}{name}{file}{verdict}{damaged}"]
    if with_file and path is not None and path.stem == ident:
        # Named after its id, with a copy beside it: its file's name still tells A from B
        # (the copy's ``10f1b8a9 (10f1b8a9-….copy.json)`` beside a bare ``10f1b8a9`` left
        # one side unnamed); shorter, cut as the list's row cuts it (the id's first letters
        # and the name's end: ``10f1b…13719.json``), never dropped.
        named = file_label(path.name).rstrip()
        named = f"{root}:{named}" if root else named
        versions += [f"{RECORD_WORD}{named}{verdict}{damaged}", f"{named}{verdict}{damaged}"]
        if operand.verdict is not None:
            versions.append(f"{named} · {verdict_text(operand.verdict)}{damaged}")
        return [clip(text, TITLE_CHARS) for text in versions]
    versions.append(f"{name}{file}{verdict}{damaged}")
    if len(name) > MAX_ID_WIDTH:  # a long id, cut as the list's id column cuts it
        versions.append(f"{fit(name, MAX_ID_WIDTH)}{verdict}{damaged}")
    if operand.verdict is not None:  # at 80 columns: the answers as the list's columns say them
        cut = name if len(name) <= MAX_ID_WIDTH else fit(name, MAX_ID_WIDTH)
        versions.append(f"{cut}{file} · {verdict_text(operand.verdict)}{damaged}")
    return [clip(text, TITLE_CHARS) for text in versions]


def abbreviated(verdict: Verdict | None) -> bool:
    """Does the list's abbreviated form of ``verdict`` (a title's last version) read
    otherwise than its words (``TAMPERED · ✗ untrust.`` for ``tampered · ✗ no
    (untrusted)``)?"""
    return verdict is not None and verdict_text(verdict) != verdict_words(verdict)


def side_verdict(operand: Operand | None) -> str | None:
    """The verdict a side carries, in words (``⚠ untrusted · TAMPERED · ✗ untrusted``);
    None for a snapshot, baseline or run, which have none."""
    if operand is None or operand.verdict is None:
        return None
    return verdict_words(operand.verdict)


def untrusted_warnings(a: Operand | None, b: Operand | None) -> list[str]:
    """``⚠ B is untrusted (integrity tampered): its differences come from evidence that fails
    its integrity check (the record contradicts itself: …)`` for a side whose verdict is
    untrusted, one line for both: the core's words, with the reason ``intentus-tui diff``
    gives (they stopped at "…fails its integrity check", the reason unsaid); sanitized."""
    from intentus_tui.core.actions import untrusted_warnings as warnings

    return [clip(f"⚠ {text}", WARNING_CHARS) for text in warnings(a, b)]


WHOLE_WARNING_KEY = "w"  # the full-screen comparison's key for the warning in full
_IN_FULL = f" · {WHOLE_WARNING_KEY}: in full"


def _cut_at_word(text: str, limit: int) -> str:
    """``text``'s first words that fit ``limit`` characters with "…", whole; "" where not
    even its first word does (begun mid-word, "the env…" read as nothing said)."""
    if len(text) <= limit:
        return text
    head, space, _ = text[: max(limit, 0)].rpartition(" ")  # a space at ``limit``: a cut
    head = head.rstrip(" ,;:")
    return head + "…" if space and head else ""


def short_untrusted_warning(
    a: Operand | None, b: Operand | None, rows_of: Callable[[str], int], rows: int
) -> str | None:
    """The warning about untrusted sides in at most ``rows`` rows (``rows_of``: the rows a
    text wraps to) where the whole (``untrusted_warnings``) takes more: which sides, how,
    and the start of each side's reason, each given an even share of the room (``⚠ A and B
    are untrusted (tampered) · A: the envelope does not hash… · B: the record contradicts
    itself: finalResponse differs… · w: in full``), in whole words: a reason whose first
    word does not fit is not begun (it was cut mid-word, "A: the env…", or left "A: …"). A
    24-row screen cut the whole after its fourth row, B's reason lost, or gave it rows the
    values needed. Sanitized; None when no side is untrusted."""
    sides = [
        (name, verdict)
        for name, side in (("A", a), ("B", b))
        if side is not None and (verdict := side.verdict) is not None and not verdict.trusted
    ]
    if not sides:
        return None
    words = [verdict.integrity.value.replace("_", " ") for _, verdict in sides]
    reasons = [sanitize_line(verdict.integrity_reason) for _, verdict in sides]
    if len(sides) == 1:
        head = f"⚠ {sides[0][0]} is untrusted ({words[0]})"
        labels = [""]
    else:
        how = words[0] if words[0] == words[1] else f"A {words[0]}, B {words[1]}"
        head = f"⚠ A and B are untrusted ({how})"
        labels = ["A: ", "B: "]
        if reasons[0] == reasons[1]:
            reasons, labels = reasons[:1], [""]

    def text(room: int) -> str:
        share = room // len(reasons)
        spare = sum(max(share - len(r), 0) for r in reasons)  # a short reason's room
        cut = [_cut_at_word(r, share + spare) for r in reasons]
        begun = (f" · {lbl}{r}" for lbl, r in zip(labels, cut, strict=True) if r)
        return "".join([head, *begun])

    low, high = 0, sum(len(r) for r in reasons)  # the most room for the reasons that fits
    while low < high:
        middle = (low + high + 1) // 2
        if rows_of(text(middle) + _IN_FULL) <= rows:
            low = middle
        else:
            high = middle - 1
    return text(low) + _IN_FULL


# Words that name what follows ("A:", "B:", "w:", "⚠"): never the last on a row; and the
# separator, never the first on one.
_LEADING_WORDS = frozenset({"A:", "B:", "w:", "⚠"})
_SEPARATOR = "·"


def warning_rows(line: str, width: int) -> list[str]:
    """``line`` wrapped at its words to rows of ``width``, as Textual wraps it, but a
    side's name stays with its reason's first word and a "·" with the word before it: at
    44 columns the short warning ended a row "(tampered) · A:" and began the next
    "the… · B: …". A row's end parts two sentences: no "·" is left ending a row (at 40-46
    columns a row read "⚠ A and B are untrusted (tampered) ·"), as ``separated_rows(...,
    ends=False)`` breaks the titles, the status and the side pane's verdicts."""
    units: list[str] = []
    for word in line.split(" "):
        if units and (word == _SEPARATOR or units[-1] in _LEADING_WORDS):
            units[-1] += f" {word}"
        else:
            units.append(word)
    rows: list[str] = []
    for unit in units:
        if rows and cell_len(rows[-1]) + 1 + cell_len(unit) <= width:
            rows[-1] += f" {unit}"
            continue
        if rows:
            rows[-1] = rows[-1].removesuffix(f" {_SEPARATOR}")
        if cell_len(unit) <= width or " " in unit:  # a name and its word: kept together
            rows.append(unit)
        else:  # one word wider than a row: folded
            rows += [unit[at : at + max(width, 1)] for at in range(0, len(unit), max(width, 1))]
    return rows


def path_rows(where: str, width: int) -> list[str]:
    """``at PATH`` in rows of ``width``, broken after a "." or before a "[" of the path
    (at 40 columns "at" stood alone on a row over the path, which took the rows A's and
    B's values have); a name wider than a row is folded."""
    rows = ["at"]
    for token in re.findall(r"\[[^\]]*\]\.?|[^.\[]+\.?|[.\[]", where):
        gap = " " if rows == ["at"] else ""
        if cell_len(rows[-1]) + len(gap) + cell_len(token) <= width:
            rows[-1] += gap + token
            continue
        step = max(width, 1)
        rows += [token[at : at + step] for at in range(0, len(token), step)]
    return rows


def hidden_text(layout: SideBySide, rules_on: bool) -> str:
    """What the ignore rules hide: ``6 hidden by ignore rules (i shows)``; with ``i``, ``ignore
    rules off: 6 shown (i hides)``. Nothing hidden, nothing said (``""``), as the command
    line's ``diff`` and the Diff tab say nothing (it said ``0 hidden by ignore rules (i
    shows)``); with ``i``, only that the rules are off."""
    hidden = layout.hidden
    if not rules_on:
        return f"ignore rules off: {hidden:,} shown (i hides)" if hidden else "ignore rules off"
    return f"{hidden:,} hidden by ignore rules (i shows)" if hidden else ""


def nothing_to_step_to(layout: SideBySide, rules_on: bool, *, in_timeline: bool) -> str:
    """What ``n``/``N`` say where there is no difference to step to (they did nothing): the
    two timelines agree, or the values, and the differences the ignore rules hide."""
    hidden = layout.hidden if rules_on else 0
    rules = f" ({hidden:,} hidden by ignore rules: i shows them)" if hidden else ""
    if in_timeline:
        values = layout.shown(rules_on)
        elsewhere = f"; t: the {values:,} changed values" if values else rules
        return f"No changed event to step to: the timelines agree{elsewhere}"
    if not layout.comparison.equal and not hidden and layout.shown(rules_on) == 0:
        return "No value differs path by path: they differ as the status line's notes say"
    return f"No difference to step to: A and B are equal{rules}"


def no_timelines_text(a: Operand, b: Operand) -> str:
    """What ``t`` says where there are no timelines to switch to (it did nothing): only two
    records (or runs) are aligned event by event; a snapshot's step output may well hold
    events (it said "a snapshot has no events"), which Verist's snapshot comparison leaves
    out (a note says when they differ)."""
    kinds = sorted({side.kind for side in (a, b) if side.kind != "record"})
    which = " and ".join(f"a {kind}" for kind in kinds) or "these sides"
    return (
        "No timelines to switch to: only two records are compared event by event; "
        f"with {which}, they are left out, as Verist compares snapshots (a note says when "
        "they differ)"
    )


def sides_text(a: Operand | None, b: Operand | None, compared: str) -> str:
    """What the two sides are, first on the status line, in the words their titles and the
    command line's ``diff`` use: ``records``, ``snapshots``, ``baselines``, ``runs`` (both
    one kind); else A's, then B's: ``record and baseline``, ``snapshot and baseline`` (it
    said ``snapshots`` of any side compared as Verist compares snapshots, a record or a
    baseline among them). ``compared``: what is said without two operands (``values``)."""
    if a is None or b is None:
        return compared
    if a.noun == b.noun:
        return f"{a.noun}s"
    return f"{a.noun} and {b.noun}"


def counts_text(layout: SideBySide, rules_on: bool, equal: str) -> str:
    """``27 changed values · 13 changed events``: the differences, one per changed value, as
    ``intentus-tui diff`` and the Diff tab count them and as ``n`` steps through the values;
    then, with a timeline, the events that differ, as ``n`` steps through the timeline.
    ``equal``: what no difference is called (``equal_words`` of the two sides)."""
    from intentus_tui.core.actions import changed_events_text, changed_values_text

    shown = layout.shown(rules_on)
    comparison = layout.comparison
    if comparison.equal and rules_on:
        text = equal
    elif shown == 0 and not comparison.equal:
        return "different (not value by value: see the notes)"
    else:
        text = changed_values_text(shown)
    if layout.timeline and not (comparison.equal and rules_on):
        text += f" · {changed_events_text(len(layout.timeline_differences(rules_on)))}"
    return text


def position_text(in_timeline: bool, position: int | None, count: int) -> str:
    """Where ``n``/``N`` are, in the unit they step in: ``at value 4/27`` in the values,
    ``at event 4/13`` in the timeline (before the first: ``at value 0/27``); ``""`` when
    there is nothing to step to."""
    if not count:
        return ""
    return f"at {'event' if in_timeline else 'value'} {position or 0:,}/{count:,}"


def divergence_text(layout: SideBySide, rules_on: bool) -> str | None:
    """Where the event streams first part, in the words of the command line's ``diff`` and
    the Diff tab: ``events[1] (seq - / 2): only in B (MODEL_CALL)``."""
    divergence = layout.divergence(rules_on)
    return None if divergence is None else sanitize_line(divergence.describe())


_OPENERS = ("{", "[")
_CLOSERS = frozenset({"}", "]"})
# How far a value's first or last line looks for its other end: further (a value of more
# lines than this) it is shown as it is, rather than spend a walk on each cursor move.
BACKWARD_ROWS = 20_000
PANEL_LINES = 4  # A's and B's lines under the values (the first says where)
# How far an object written whole on one line is read, to find where A's and B's differ.
WHOLE_VALUE_REACH = 16


def whole_value_line(rows: Sequence[SideRow], index: int, side: str, limit: int) -> str | None:
    """The object or array whose first or last line is ``rows[index]`` on ``side`` (``"a"``
    or ``"b"``), on one line as the values view writes its lines (``"payload": {"agent":
    "x", "attempt": 1}``) and cut after ``limit`` characters; None where that row is no
    such line. A whole event only one side has is shown by what it holds, not by its ``{``."""
    span = value_span(rows, index)
    opening = getattr(rows[span.start], side) if span is not None else None
    if span is None or opening is None or not opening.rstrip().endswith(_OPENERS):
        return None
    parts = [opening.strip()]
    size = len(parts[0])
    after_opening = True
    for row in islice(rows, span.start + 1, span.stop):
        line = getattr(row, side)
        if line is None:  # a gap: the line is only on the other side
            continue
        piece = line.strip()
        parts.append(piece if after_opening or piece in _CLOSERS else ", " + piece)
        size += len(parts[-1])
        after_opening = piece.endswith(_OPENERS)
        if size > limit:
            break
    whole = "".join(parts)
    return whole if len(whole) <= limit else whole[: max(limit - 1, 0)] + "…"


def panel_texts(
    a: str | None, b: str | None, width: int, *, one_line: bool = False, lines: int = PANEL_LINES
) -> tuple[str | None, str | None]:
    """A's and B's text in a panel of ``lines`` lines under a comparison (sanitized,
    stripped), each wrapped at ``width`` cells after its side's letter: as they are while
    both fit; else each cut to at most half the lines, or to one line (always with
    ``one_line``: an object written whole), the two cut where they differ (``clip_pair``).
    A long A pushed B out of the panel, and two values cut at their end read the same."""
    sa = None if a is None else sanitize_line(a.strip())
    sb = None if b is None else sanitize_line(b.strip())
    if not one_line and _panel_lines(sa, width) + _panel_lines(sb, width) <= lines:
        return sa, sb
    # Words wrap whole (a long one starts below the letter): shorter cuts until both fit.
    for budget in range(width * (lines // 2), width, -max(width // 2, 1)) if not one_line else ():
        cut = _cut_pair(sa, sb, budget)
        if _panel_lines(cut[0], width) + _panel_lines(cut[1], width) <= lines:
            return cut
    return _cut_pair(sa, sb, width)


def _cut_pair(a: str | None, b: str | None, width: int) -> tuple[str | None, str | None]:
    if a is not None and b is not None:
        return clip_pair(a, b, width)
    return (
        None if a is None else clip_pair(a, a, width)[0],
        None if b is None else clip_pair(b, b, width)[0],
    )


def _panel_lines(text: str | None, width: int) -> int:
    from textual.content import Content

    return 1 if text is None else len(Content(f"A {text}").wrap(width + 2))


def value_span(rows: Sequence[SideRow], index: int) -> range | None:
    """The rows of the object or array whose first or last line is ``rows[index]``, or None
    where that row is no such line (or its other end is further than ``BACKWARD_ROWS``)."""
    row = rows[index]
    text = row.a if row.a is not None else row.b
    if text is None:
        return None
    body = text.strip()
    closing = body in _CLOSERS
    if not closing and not body.endswith(_OPENERS):
        return None
    # A value's own first and last lines are the only rows with its path (each line
    # inside has a longer one): its other end is the nearest row with that path.
    path = row.path
    step = -1 if closing else 1
    end = index - BACKWARD_ROWS if closing else index + BACKWARD_ROWS
    for at in range(index + step, max(min(end, len(rows)), -1), step):
        if rows[at].path == path:
            return range(min(index, at), max(index, at) + 1)
    return None


def span_state(
    rows: Sequence[SideRow], span: range, rules_on: bool
) -> Literal["changed", "hidden", "same"]:
    """``changed`` if anything in ``span`` differs (as the timeline marks the event),
    ``hidden`` if only what the ignore rules hide does, else ``same``."""
    hidden = False
    for at in span:
        row = rows[at]
        if row.differs(rules_on):
            return "changed"
        hidden = hidden or row.status not in ("same", "uncompared")
    return "hidden" if hidden else "same"


def legend() -> tuple[str, list[tuple[str, str]]]:
    """The comparison's marks, for ``?``."""
    return (
        "Comparison (d, D): marks",
        [
            ("~ + -", "changed, only in B, only in A"),
            ("≈", "differs, but an ignore rule hides it (i shows it)"),
            ("╱╱╱", "a gap: the line or event is only on the other side"),
            ("⋯ N unchanged lines ⋯", "unchanged lines folded away (e unfolds)"),
        ],
    )
