"""Small builders for the side pane's text: badges, labelled rows, compact JSON values.

Everything here produces ``Content`` from literal strings (never markup), and every value
that came from a record is passed through ``sanitize_line`` first. Styles are theme
variables, so the panes follow the app's theme.

A ``Line`` is a prefix (indent, label or bullet) and a body; ``LinesView`` wraps the body
under itself (a hanging indent), so a long hash or explanation stays in its column
instead of running back to the left edge of a narrow pane.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import orjson
from rich.cells import cell_len
from textual.app import ComposeResult
from textual.content import Content, Span
from textual.geometry import Size
from textual.widget import Widget

from intentus_tui.core.actions import MISSING
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters.execution_text import clip, explain_reason
from intentus_tui.tui.widgets.parts_text import separated_rows
from intentus_tui.tui.widgets.scroll_keys import KeyedScroll

if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail

# Badge kinds -> style. Kept to a handful so every pane speaks the same colour language.
BADGE_STYLES: dict[str, str] = {
    "ok": "bold $text on $success",
    "error": "bold $text on $error",
    "warning": "bold $text on $warning",
    "info": "bold $text on $primary",
    "muted": "bold $text on $panel",
}
LABEL_STYLE = "$foreground-muted"
HEADING_STYLE = "bold $text-accent"
PROBLEM_STYLE = "$text-error"
WARNING_STYLE = "$text-warning"
OK_STYLE = "$text-success"
DIM_STYLE = "$foreground-muted"  # ($text-muted is "auto 60%": white in Content)
LABEL_WIDTH = 16
MIN_BODY_WIDTH = 16  # narrower than this, a line wraps from the left edge instead
# A space a pane's wrap does not break at (``unbroken``), shown as a plain space. Textual's
# wrap breaks at a no-break space as at any other.
NO_BREAK = "\u00a0"

Part = str | Content | tuple[str, str]


class Line(NamedTuple):
    """One logical line: ``prefix`` then ``body``; the body wraps under itself."""

    prefix: Content
    body: Content
    # A body of parts (``parted``): each part, and the mark after it, as the body holds them.
    parts: tuple[Content, ...] = ()
    marks: tuple[Content, ...] = ()
    flowing: int | None = None  # the parts from this one on are sentences
    heading: str = ""  # a section heading's name (``heading``): shortened where too wide

    @property
    def plain(self) -> str:
        """The line as a terminal shows it, unwrapped."""
        return (self.prefix.plain + self.body.plain).replace(NO_BREAK, " ")


BLANK = Line(Content(""), Content(""))


def _body(parts: Sequence[Part]) -> Content:
    return Content.assemble(*parts)


def badge(label: str, kind: str) -> Content:
    """`` MATCH `` on a coloured background."""
    return Content.assemble((f" {label} ", BADGE_STYLES.get(kind, BADGE_STYLES["muted"])))


def heading(title: str, *after: Part) -> Line:
    """A section title, optionally followed by a badge or a note on the same line (they
    wrap beside the title, not back under it)."""
    if not after:
        return Line(Content(""), _body([(title, HEADING_STYLE)]), heading=title)
    parts: list[Part] = []
    for part in after:
        parts += ["  ", part] if parts else [part]
    return Line(Content.assemble((title, HEADING_STYLE), "  "), _body(parts), heading=title)


# The headings' shorter names, for a pane too narrow for a word of the name (at 44
# columns the Verify tab, 8 cells wide, read "Integrit" over "y"), as the tabs' labels are
# shortened (``side_pane.tab_labels``); the list's verdicts abbreviate so ("unverif.").
SHORT_HEADINGS = {
    "Integrity": "Integ.",
    "Structure": "Struct.",
    "Write-ahead log": "WAL",
    "Inconsistencies": "Incons.",
}


def heading_name(title: str, width: int) -> str:
    """``title`` where each of its words fits ``width`` cells; else its shorter name; else
    each word too wide cut to the width, ending in "." (never broken over two rows)."""
    for name in (title, SHORT_HEADINGS.get(title, title)):
        if all(cell_len(word) <= width for word in name.split()):
            return name
    return " ".join(_abbreviated(word, width) for word in name.split())


def _abbreviated(word: str, width: int) -> str:
    return word if cell_len(word) <= width or width < 2 else word[: width - 1] + "."


def _words_fitted(content: Content, width: int) -> Content:
    """``content`` with each word wider than ``width`` cut to it, ending in "." in its own
    style (a badge's ``UNVERIFIABLE`` in 8 cells: ``UNVERIF.``, not broken over two rows)."""
    plain = content.plain
    if width < 2 or all(cell_len(word) <= width for word in plain.split()):
        return content
    pieces: list[Content] = []
    done = 0
    for word in re.finditer(r"\S+", plain):
        if cell_len(word.group()) <= width:
            continue
        keep = word.start() + width - 1
        styles = [span.style for span in content.spans if span.start <= keep < span.end]
        pieces += [content[done:keep], Content(".", [Span(0, 1, style) for style in styles])]
        done = word.end()
    return Content("").join([*pieces, content[done:]])


def row(label: str, *value: Part, width: int = LABEL_WIDTH, indent: int = 2) -> Line:
    """``  Label            value``: a muted label column; the value wraps beneath itself."""
    padded = label.ljust(width - 1) + " "
    return Line(Content.assemble(" " * indent, (padded, LABEL_STYLE)), _body(value))


def parted(
    prefix: Content, parts: Sequence[Content], marks: Sequence[Content], flowing: int | None = None
) -> Line:
    """A line whose body is ``parts``, each but the last followed by its mark and a space
    (``✗ no (untrusted) — its reason``), wrapped only between two parts and with no mark
    ending a row (``separated_rows``): an answer is not broken in two ("✗ no" over
    "(untrusted)"), nor left with a "·" or "—" hanging. The parts from ``flowing`` on are
    sentences, wrapped at their words."""
    shown = [(part, mark) for part, mark in zip(parts, marks, strict=True) if part.plain]
    body = Content(" ").join(
        part + mark if at < len(shown) - 1 else part for at, (part, mark) in enumerate(shown)
    )
    return Line(prefix, body, tuple(parts), tuple(marks), flowing)


def answer_row(label: str, answer: Part, reason: str, *, width: int = LABEL_WIDTH) -> Line:
    """``  Label    answer — reason``: a verdict's answer and its reason (``parted``)."""
    mark = Content.styled(" —", DIM_STYLE)
    parts = [_body([answer]), Content.styled(reason, DIM_STYLE)]
    return parted(row(label, width=width).prefix, parts, [mark, mark], flowing=1)


def bullet(text: str, style: str = "", mark: str = "•", indent: int = 2) -> Line:
    return Line(
        Content.assemble(" " * indent, (f"{mark} ", style)), Content.assemble((text, style))
    )


def plain(text: str, style: str = "", indent: int = 2) -> Line:
    return Line(Content(" " * indent), Content.assemble((text, style)))


def badge_line(mark: Content, note: str, style: str = "") -> Line:
    """A badge with a note that wraps beside it, not under it."""
    return Line(Content.assemble(mark, "  "), Content.assemble((note, style)))


def unbroken(text: str) -> str:
    """``text`` kept on one line by a pane's wrap wherever it fits: ``✗ no
    (record_corrupted)`` is one answer, not ``✗ no`` and a reason on the next line."""
    return text.replace(" ", NO_BREAK)


def line(*parts: Part) -> Line:
    """A line with no indent."""
    return Line(Content(""), _body(parts))


def loading_lines(label: str) -> list[Line]:
    """A tab's text while the execution ``label`` (already made safe) is being read."""
    return [line(("loading ", DIM_STYLE), (label, "bold"), "…")]


def join_lines(lines: Iterable[Line]) -> Content:
    """All lines as one Content, unwrapped (for tests and copying)."""
    return _shown(Content("\n").join(Content.assemble(ln.prefix, ln.body) for ln in lines))


def _shown(content: Content) -> Content:
    """``content`` with its no-break spaces as the plain spaces a terminal shows."""
    plain = content.plain
    if NO_BREAK not in plain:
        return content
    return Content(plain.replace(NO_BREAK, " "), list(content.spans), content.cell_length)


def _wrap_keeping(body: Content, room: int) -> list[Content]:
    """``body`` wrapped to ``room``, never at a no-break space while the words it joins fit
    on one line. Textual wraps a copy whose no-break spaces are letters; its lines are
    found again, in order, in ``body``."""
    plain = body.plain
    joined = plain.replace(NO_BREAK, "_")
    pieces: list[Content] = []
    position = 0
    for wrapped in Content(joined).wrap(room):
        start = joined.find(wrapped.plain, position)
        if start < 0:  # not a piece of the text as it was: Textual's own wrap, then
            return _shown(body).wrap(room)
        end = start + len(wrapped.plain)
        pieces.append(_shown(body[start:end]))
        position = end
    return pieces


def _wrap_body(body: Content, room: int) -> list[Content]:
    """``body`` wrapped to ``room``. One word too long for it (an execution id) breaks
    after its hyphens when every piece then fits (``65587ebf-e838-467e-`` then
    ``8eb6-a712b3915d38``), not anywhere as Textual breaks it (``…-8eb`` ``6-a7…``)."""
    plain = body.plain
    if NO_BREAK in plain:
        return _wrap_keeping(body, room) if body.cell_length > room else [_shown(body)]
    if len(plain) <= room or not plain.isascii() or "-" not in plain or " " in plain:
        return body.wrap(room)
    offsets: list[int] = []
    start = 0
    while len(plain) - start > room:
        start = plain.rfind("-", start, start + room) + 1
        if start <= (offsets[-1] if offsets else 0):  # no hyphen in reach
            return body.wrap(room)
        offsets.append(start)
    return body.divide(offsets)


def wrap_lines(lines: Iterable[Line], width: int) -> list[Content]:
    """Wrap each line's body to what is left of ``width`` after its prefix."""
    out: list[Content] = []
    for ln in lines:
        if ln.parts:
            out.extend(_parted_rows(ln, width))
            continue
        indent = ln.prefix.cell_length
        room = width - indent
        if room < MIN_BODY_WIDTH:
            whole = Content.assemble(ln.prefix, ln.body)
            if ln.heading:  # its name, and its badges' words, each on one row
                name = Content.styled(heading_name(ln.heading, width), HEADING_STYLE)
                # Its badges after it (none: its body was its name).
                after = ln.prefix[len(ln.heading) :] + ln.body if ln.prefix.plain else Content("")
                whole = _words_fitted(name + after, width)
            out.extend(word_rows(_shown(whole), width))
            continue
        wrapped = _wrap_body(ln.body, room) if ln.body.plain else [Content("")]
        if _breaks_a_word(wrapped, ln.body.plain, width):
            out.extend(_hanging_rows(ln.prefix, ln.body, width))
            continue
        out.append(Content.assemble(ln.prefix, wrapped[0]))
        hang = Content(" " * indent)
        out.extend(Content.assemble(hang, rest) for rest in wrapped[1:])
    return out


def _parted_rows(ln: Line, width: int) -> list[Content]:
    """A ``parted`` line's rows: beside its prefix and under itself; where that leaves too
    little room, its first part beside the prefix if it fits, the rest under the prefix at
    its indent."""
    indent = ln.prefix.cell_length
    room = width - indent
    parts, marks, flowing = ln.parts, ln.marks, ln.flowing
    if room >= MIN_BODY_WIDTH or ln.body.cell_length <= room:
        rows = separated_rows(parts, max(room, 1), marks, flowing, ends=False)
        if not _breaks_a_word(rows, ln.body.plain, width):
            hang = Content(" " * indent)
            return [ln.prefix + (rows[0] if rows else Content("")), *(hang + r for r in rows[1:])]
        # A word too wide for the room beside the prefix: the rest from the left edge.
    lead = len(ln.prefix.plain) - len(ln.prefix.plain.lstrip(" "))
    first = parts[0] if parts else Content("")
    if first.plain and first.cell_length <= room:
        head = ln.prefix + first
        parts, marks = parts[1:], marks[1:]
        flowing = None if flowing is None else max(flowing - 1, 0)
    else:
        head = ln.prefix.rstrip()
    words = [word for part in parts for word in part.plain.split()]
    if any(cell_len(word) > width - lead for word in words if cell_len(word) <= width):
        lead = 0  # the indent would push a word that fits the pane over its edge
    rows = separated_rows(parts, max(width - lead, 1), marks, flowing, ends=False)
    return [*word_rows(head, width), *(Content(" " * lead) + r for r in rows)]


def _breaks_a_word(rows: Sequence[Content], text: str, width: int) -> bool:
    """Whether ``rows`` (``text`` wrapped) end one row and begin the next with the two
    pieces of a word that fits ``width`` cells; an execution id broken only after its
    hyphens (``_wrap_body``) is not."""
    if len(rows) < 2:
        return False
    if " " not in text and all(r.plain.endswith("-") for r in rows[:-1]):
        return False
    words = {word for word in text.split() if cell_len(word) <= width}
    split = [r.plain.split() for r in rows]
    return any(a and b and a[-1] + b[0] in words for a, b in pairwise(split))


def _hanging_rows(prefix: Content, body: Content, width: int) -> list[Content]:
    """``prefix`` and ``body`` in rows of ``width`` cells broken between its words, the
    body under itself where a word fits beside the prefix; a word too wide for that begins
    a row at the left edge (the row's words after it too), and only a word wider than
    ``width`` is broken ("(manually_invalidat" over "ed)" beside a label in 30 cells)."""
    indent = prefix.cell_length
    room, hang = width - indent, Content(" " * indent)
    text = _shown(body)
    plain = text.plain
    rows: list[Content] = []
    lead, cap = prefix, room  # the row's start (prefix, hanging indent or none), its room
    start: int | None = None  # where the row's first word starts (None: no word yet)
    end = 0
    for word_start, word_end, fresh in _kept_words(body.plain, room):
        wide = cell_len(plain[word_start:word_end]) > room
        if start is not None and not fresh and cell_len(plain[start:word_end]) <= cap:
            end = word_end
            continue
        if start is not None or wide:
            rows.append(lead + text[start:end] if start is not None else prefix.rstrip())
            lead, cap = hang, room
        start = word_start
        if wide:
            lead, cap = Content(""), width
            while cell_len(plain[start:word_end]) > width:  # wider than the pane: broken
                cut = _cut(plain, start, width)
                rows.append(text[start:cut])
                start = cut
        end = word_end
    rows.append(lead + text[start:end] if start is not None else prefix.rstrip())
    return rows


def _kept_words(plain: str, room: int) -> list[tuple[int, int, bool]]:
    """Where ``plain``'s words start and end, the words joined by no-break spaces
    (``unbroken``) one word where they fit ``room`` cells; else each its own, the first
    beginning a row (True: "✗ no" kept from the text before, not "… ✗" over "no")."""
    spans: list[tuple[int, int, bool]] = []
    for kept in re.finditer(r"[^ \n]+", plain):
        if cell_len(kept.group()) <= room:
            spans.append((*kept.span(), False))
            continue
        at = kept.start()
        words = list(re.finditer(r"\S+", kept.group()))
        spans += [(at + w.start(), at + w.end(), len(words) > 1 and w is words[0]) for w in words]
    return spans


def word_rows(content: Content, width: int) -> list[Content]:
    """``content`` in rows of ``width`` cells broken between its words: a word that fits
    is never broken, as Textual's wrap breaks a row's first word where the spaces before
    it (an indent) leave it too little room ("  contradi" over "cts" in 10 cells). The
    spaces that begin it stay where its first word fits beside them; a word wider than
    ``width`` is broken at the width."""
    width = max(width, 1)
    return [row for piece in content.split("\n") for row in _piece_rows(piece, width)]


def _piece_rows(piece: Content, width: int) -> list[Content]:
    plain = piece.plain
    words = [(word.start(), word.end()) for word in re.finditer(r"\S+", plain)]
    if not words:
        return [Content("")]
    rows: list[Content] = []
    start = 0 if cell_len(plain[: words[0][1]]) <= width else words[0][0]
    end: int | None = None  # where the row's last word ends (None: no word yet)
    for word_start, word_end in words:
        if end is not None and cell_len(plain[start:word_end]) <= width:
            end = word_end
            continue
        if end is not None:
            rows.append(piece[start:end])
            start = word_start
        while cell_len(plain[start:word_end]) > width:  # wider than a row: broken
            cut = _cut(plain, start, width)
            rows.append(piece[start:cut])
            start = cut
        end = word_end
    rows.append(piece[start:end])
    return rows


def _cut(plain: str, start: int, width: int) -> int:
    """Where ``plain`` from ``start`` stops fitting ``width`` cells (a character at least)."""
    used = 0
    for at in range(start, len(plain)):
        used += cell_len(plain[at])
        if used > width:
            return max(at, start + 1)
    return len(plain)


class LinesView(Widget):
    """Shows ``Line``s with hanging indents; height follows the wrapped text."""

    DEFAULT_CSS = """
    LinesView { height: auto; width: 1fr; }
    """

    def __init__(self, lines: Iterable[Line] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Line] = list(lines)
        self._wrapped: tuple[int, list[Content]] | None = None

    @property
    def lines(self) -> list[Line]:
        return self._lines

    @property
    def text(self) -> str:
        return join_lines(self._lines).plain

    def update(self, lines: Iterable[Line]) -> None:
        self._lines = list(lines)
        self._wrapped = None
        self.refresh(layout=True)

    def _wrap(self, width: int) -> list[Content]:
        if self._wrapped is None or self._wrapped[0] != width:
            self._wrapped = (width, wrap_lines(self._lines, width))
        return self._wrapped[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._wrap(width))

    def render(self) -> Content:
        return Content("\n").join(self._wrap(self.size.width))


class LinesPane(KeyedScroll):
    """A side-pane tab that shows ``lines_for(detail)`` for the current detail; scrolls.

    Subclasses name the ``LinesView``'s id (``TEXT_ID``) and say what lines to show.
    """

    # The scrollbar's gutter kept (as the Replay tab's summary): two cells narrower, the
    # labelled rows can wrap from the left edge in fewer rows, which need no scrollbar; the
    # Post-mortem tab of a demo record at 70x37 took 31 rows, 30 with the bar, for ever.
    DEFAULT_CSS = """
    LinesPane { padding: 0 1; scrollbar-gutter: stable; }
    LinesPane > LinesView { width: 1fr; }
    """
    TEXT_ID: ClassVar[str] = "pane-text"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._detail: ExecutionDetail | None = None
        self.loading_label: str | None = None  # with no detail: the execution being read
        self._stale = False  # hidden when its detail came: its lines are made when shown

    def lines_for(self, detail: ExecutionDetail | None) -> list[Line]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield LinesView(self.lines_for(None), id=self.TEXT_ID)

    @property
    def detail(self) -> ExecutionDetail | None:
        return self._detail

    @detail.setter
    def detail(self, detail: ExecutionDetail | None) -> None:
        self._detail = detail
        if self.is_mounted:
            self._show()

    def on_mount(self) -> None:
        self._show()

    def on_show(self) -> None:
        self.fill()

    def fill(self) -> None:
        """Make the lines of the current detail now, if they were left for when shown."""
        if self._stale:
            self._show(hidden_too=True)

    def _show(self, *, hidden_too: bool = False) -> None:
        view = self.query_one(f"#{self.TEXT_ID}", LinesView)
        if not hidden_too and not self._on_screen():
            # A tab not shown makes its lines when it is: a 16,000-attempt execution's
            # post-mortem took a second of each selection made on another tab. Until
            # then it shows nothing, never the execution before.
            self._stale = True
            view.update(())
            return
        self._stale = False
        loading = self.loading_label if self._detail is None else None
        lines = loading_lines(loading) if loading else self.lines_for(self._detail)
        view.update(lines)
        self.scroll_home(animate=False)

    def _on_screen(self) -> bool:
        """Whether this is shown, or will be at the next frame (its tab the active one)."""
        return all(node.display for node in self.ancestors_with_self if isinstance(node, Widget))

    @property
    def text(self) -> str:
        """The plain text shown (for tests and copy): a hidden tab's, as it will show."""
        self.fill()
        return self.query_one(f"#{self.TEXT_ID}", LinesView).text


SAFE_CHARS = 600  # a record-derived string longer than this is cut (a 1 MB id stays cheap)


def safe(value: Any, limit: int = SAFE_CHARS) -> str:
    """A record-derived value made inert for one line of display, and cut if huge."""
    return clip(value if isinstance(value, str) else str(value), limit)


def _non_finite(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def compact_value(value: Any, limit: int = 240, *, sort_keys: bool = False) -> str:
    """One-line JSON for display: sanitized, and cut at ``limit`` characters. ``sort_keys``:
    each object's keys in order, as ``intentus-tui diff`` writes a changed value.

    Huge strings are sliced *before* encoding, so a 1 MB value costs the same as a short one.
    """
    if value is MISSING:
        return "∅ (absent)"
    if isinstance(value, float) and not math.isfinite(value):
        return _non_finite(value)
    cut = False
    if isinstance(value, str) and len(value) > limit:
        value, cut = value[:limit], True
    try:
        option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
        text = orjson.dumps(value, option=option).decode()
    except (TypeError, orjson.JSONEncodeError):
        text = repr(value)  # big ints, non-JSON values: still shown, never raised
    if cut:
        text = text[:-1] + "…"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return sanitize_line(text)


def replayable_row(detail: ExecutionDetail) -> Line:
    """The verdict's replayability, as every screen says it (an untrusted record is not
    replayable whatever its header says)."""
    verdict = detail.verdict
    if verdict is None:  # nothing readable as an execution
        return row("Replayable", (f"no — {explain_reason(detail.replay_reason)}", WARNING_STYLE))
    if verdict.replayable:
        return row("Replayable", ("yes", OK_STYLE))
    why = f"no ({verdict.replay.value}) — {verdict.replay_reason}"  # as the Verify tab
    return row("Replayable", (safe(why), WARNING_STYLE))
