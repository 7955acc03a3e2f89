"""The start frame: a directory's first rows on screen before Textual has loaded.

Importing Textual and building the app's first frame takes most of a second on a slow
machine (a bare Textual app needs ~0.45 s here just to draw one line). The first rows are
ready long before that (``first_rows``), so the command line draws them at once, in
plain ANSI, where the app's first frame will draw them: the header's two lines and the
execution list's box. The app's first frame then replaces it.

Meanwhile the terminal neither echoes keys nor waits for a line: keys typed during the
start frame wait, unshown, for the app, which reads them when it starts. ``close``
restores the terminal exactly as it was.

Nothing here imports Textual. Every text written comes from the summaries (sanitized by
the core) or the sanitized directory name, and is sanitized once more here.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NamedTuple

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.render.cells import fit
from intentus_tui.tui.pane_widths import list_pane_width
from intentus_tui.tui.presenters.header_text import HeaderState, Part, counts_parts, location_parts
from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_rows import (
    Cell,
    copies_width,
    group_header_text,
    id_width_for,
    list_subtitle,
    row_cells,
)

# Smaller terminals get no start frame (the app lays itself out as it can).
MIN_COLUMNS, MIN_LINES = 60, 12
# Lines above the list's box (the header) and below it (the footer).
HEADER_LINES, FOOTER_LINES = 2, 1

ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"  # the alternate screen, no cursor, cleared
LEAVE = "\x1b[?1049l\x1b[?25h"  # back to the normal screen, cursor shown
RESET = "\x1b[0m"

# Textual style words and component classes, as plain SGR parameters.
_STYLE_SGR = {
    "bold": "1",
    "$text-muted": "2",
    "$success": "32",
    "$warning": "33",
    "$error": "31",
    "$accent": "36",
    "$text-accent": "36",
    "$secondary": "35",
}
_CLASS_SGR = {
    "execution-list--id": "1",
    "execution-list--file": "1;3",
    "execution-list--dim": "2",
    "execution-list--header": "2",
    "execution-list--succeeded": "32",
    "execution-list--failed": "31",
    "execution-list--in-flight": "33",
    "execution-list--unknown": "31",
    "execution-list--untrusted": "1;31",
    "execution-list--verified": "2",
    "execution-list--benign": "33",
    "execution-list--tampered": "1;31",
    "execution-list--unverifiable": "33",
    "execution-list--replayable": "2",
    "execution-list--not-replayable": "33",
}


class Span(NamedTuple):
    """Text and the SGR parameters it is drawn with ("" for none)."""

    text: str
    sgr: str = ""


Line = list[Span]


def _style_sgr(style: str) -> str:
    return ";".join(_STYLE_SGR[word] for word in style.split() if word in _STYLE_SGR)


def _header_lines(
    directory: str, model: ListModel, watch: bool, width: int, total: int | None
) -> list[Line]:
    live = "live" if watch else "off"
    state = HeaderState(directory=directory, live=live, counts=model.counts, total=total)

    def spans(parts: list[Part]) -> Line:
        return [Span(text, _style_sgr(style)) for text, style in parts]

    return [spans(location_parts(state, width)), spans(counts_parts(state, width))]


def _titled_border(left: str, right: str, width: int, title: str, *, at_end: bool) -> str:
    """A box's top or bottom edge with a title, as Textual draws a round border."""
    inner = width - 2
    title = fit(f" {title} ", max(0, min(len(title) + 2, inner - 2)))
    rule = "─" * max(0, inner - len(title) - 1)
    # a title sits one rule cell after the left corner; a subtitle, one before the right
    return f"{left}{rule}{title}─{right}" if at_end else f"{left}─{title}{rule}{right}"


def _list_lines(
    model: ListModel, rows: list[ExecutionSummary], width: int, height: int
) -> list[Line]:
    """The execution list's box: ``width`` x ``height`` cells, rows as the app sorts them."""
    inner_height = height - 2
    scrollbar = 1 if len(model) > inner_height else 0
    content = width - 2 - scrollbar
    id_width = id_width_for(rows)
    names_width = copies_width(model.copies())
    lines: list[Line] = [[Span(_titled_border("╭", "╮", width, "Executions", at_end=False), "36")]]
    for row in range(inner_height):
        cells: list[Cell]
        if row >= len(model):
            cells = [(" " * content, None)]
        elif model.is_header(row):
            cells = [(group_header_text(*model.header_of(row), content), "execution-list--header")]
        else:
            summary = model.summary_at(row)
            assert summary is not None
            copy = summary in model.shared_ids
            cells = row_cells(summary, content, id_width, copy=copy, names_width=names_width)
        line = [Span("│", "36")]
        line += [Span(text, _CLASS_SGR.get(name or "", "")) for text, name in cells]
        line += [Span(" " * scrollbar), Span("│", "36")]
        lines.append(line)
    bottom = _titled_border("╰", "╯", width, list_subtitle(model, width=width), at_end=True)
    lines.append([Span(bottom, "36")])
    return lines


def frame_lines(
    directory: str,
    rows: list[ExecutionSummary],
    *,
    watch: bool,
    columns: int,
    lines: int,
    total: int | None = None,
    layout: object = None,
) -> list[Line]:
    """The start frame, line by line from the top: the header (``total``: the record
    files, if counted), then the list's box where ``layout`` (the one remembered) has it:
    ``stacked``, across the top third, else on the left, the whole height."""
    list_width = list_pane_width(columns)
    list_height = lines - HEADER_LINES - FOOTER_LINES
    if layout == "stacked":  # the grid's rows are 1fr 2fr: Textual floors the first
        list_width, list_height = columns, list_height // 3
    model = ListModel()
    model.replace_all(rows)
    return _header_lines(directory, model, watch, columns, total) + _list_lines(
        model, rows, list_width, list_height
    )


def render(frame: list[Line], *, color: bool = True) -> str:
    """The frame as terminal output: each line placed absolutely, text sanitized."""
    out = [ENTER]
    for y, line in enumerate(frame):
        out.append(f"\x1b[{y + 1};1H")
        for span in line:
            text = sanitize_line(span.text)
            sgr = span.sgr if color else ";".join(p for p in span.sgr.split(";") if p in ("1", "2"))
            out.append(f"\x1b[{sgr}m{text}{RESET}" if sgr else text)
    return "".join(out)


class StartFrame:
    """The start frame on a terminal; ``close`` puts the terminal back as it was."""

    def __init__(self, fd_in: int, fd_out: int, saved: list[Any]) -> None:
        self._fd_in, self._fd_out, self._saved = fd_in, fd_out, saved

    @classmethod
    def show(
        cls,
        directory: str,
        rows: list[ExecutionSummary],
        *,
        watch: bool,
        total: int | None = None,
        layout: object = None,
    ) -> StartFrame | None:
        """Draw the frame if stdin and stdout are a terminal big enough; else ``None``.
        ``total``: the record files, if they were counted; ``layout``: the one remembered."""
        if not rows or os.environ.get("TERM", "") in ("", "dumb") or sys.platform == "win32":
            return None
        import termios  # POSIX only

        try:
            fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
            if not (os.isatty(fd_in) and os.isatty(fd_out)):
                return None
            columns, lines = os.get_terminal_size(fd_out)
        except (OSError, ValueError):  # no file descriptor, not a terminal, ...
            return None
        if columns < MIN_COLUMNS or lines < MIN_LINES:
            return None
        # Made before the terminal is touched: nothing can fail between quieting it and
        # handing it to ``close``.
        text = render(
            frame_lines(
                directory,
                rows,
                watch=watch,
                columns=columns,
                lines=lines,
                total=total,
                layout=layout,
            ),
            color="NO_COLOR" not in os.environ,
        )
        try:
            saved = termios.tcgetattr(fd_in)
            quiet = termios.tcgetattr(fd_in)
            quiet[3] &= ~(termios.ECHO | termios.ICANON)  # lflag: no echo, no line editing
            termios.tcsetattr(fd_in, termios.TCSANOW, quiet)
        except termios.error:
            return None
        frame = cls(fd_in, fd_out, saved)
        frame._write(text)
        return frame

    def _write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        try:
            while data:
                data = data[os.write(self._fd_out, data) :]
        except OSError:
            pass  # the terminal went away: nothing to draw on

    def close(self) -> None:
        """Back to the normal screen (a no-op once the app has left the alternate one)
        and to the terminal's own settings, keys typed but never read dropped, as the
        app does at exit."""
        import termios

        self._write(LEAVE)
        try:
            termios.tcflush(self._fd_in, termios.TCIFLUSH)
            termios.tcsetattr(self._fd_in, termios.TCSANOW, self._saved)
        except termios.error:
            pass
