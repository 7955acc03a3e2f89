"""A line of the command line's text folded at a terminal's width, its continuation lines
under its value (``inspect ID``'s ``label      value`` lines, ``verify``'s ``      - text``,
``diff``'s ``  path: "a" → "b"``):
a terminal folding it itself starts them at column 0, under the labels.

Written here rather than with ``textwrap``: it counts characters, not terminal cells (a
wide character takes two), and would cut a sanitizer's placeholder (``⟨U+202E⟩``) in two."""

from __future__ import annotations

import re

from rich.cells import cell_len, get_character_cell_size

# Continuation lines keep at least this many cells for their text: on a terminal narrower
# than a label's column and that, the indent is made smaller.
MIN_ROOM = 20
# A word longer than a whole line (a sha256 digest on a narrow terminal) is begun on the
# line it follows when at least this much of that line is left, else on the next.
MIN_START = 8

# A word, and the mark an agent's name carries in a chain (``fb-secondary ✓``): kept on
# one line, never the name on one and its outcome alone under it.
_WORDS = re.compile(r"( *)([^ ]+(?: [✓✗…?](?= |$))?)")
# What a line's value column is, in the order tried: after a changed value's path (``diff``:
# ``+ events[2].payload.exception: "…"``); after a list marker (``      - text``,
# ``      · text``); after a label of one or two words and the spaces that align its value
# (``hash        mismatch``, ``  last event       #5``, ``FAIL  name.json``); after up to
# three leading words ending in a colon (``      verdict: outcome …``, ``first divergence:``).
_CHANGED = re.compile(r" *[-+] [^ ]+: (?=[^ ])")
_MARKER = re.compile(r" *[-·+] ")
_LABEL = re.compile(r" *[^ ]+(?: [^ ]+)? {2,}(?=[^ ])")
_COLON = re.compile(r" *[^ ]+(?: [^ ]+){0,2}: (?=[^ ])")
# A control character as the sanitizer shows it (``⟨9B⟩``, ``⟨U+202E⟩``): never cut.
_PLACEHOLDER = re.compile(r"⟨(?:U\+)?[0-9A-F]{2,6}⟩")


def value_column(line: str) -> int:
    """The cell where ``line``'s value begins: its continuation lines start there (its
    leading spaces when it has no label)."""
    for pattern in (_CHANGED, _MARKER, _LABEL, _COLON):
        found = pattern.match(line)
        if found is not None:
            return cell_len(found.group())
    return len(line) - len(line.lstrip(" "))


def fold_line(line: str, width: int, indent: int | None = None) -> list[str]:
    """``line`` as lines of at most ``width`` cells, broken at spaces (the spaces at a break
    dropped), each after the first starting ``indent`` cells in (``value_column`` when
    None). A word longer than the room is cut where it must: every character is kept.
    ``line`` is shown text: sanitized, one line, no escape sequence to cut."""
    if width <= 0 or cell_len(line) <= width:
        return [line]
    indent = value_column(line) if indent is None else indent
    indent = max(0, min(indent, width - MIN_ROOM))
    pad = " " * indent
    lines: list[str] = []
    text, used, bare = "", 0, True  # the line being made, its cells, no word on it yet
    for gap, word in _WORDS.findall(line):
        size = cell_len(word)
        if not bare and used + len(gap) + size > width:
            too_long = size > width - indent
            if not too_long or width - used - len(gap) < MIN_START:
                lines.append(text)
                text, used, gap = pad, indent, ""
        elif bare and len(gap) + size > width:
            gap = gap[:indent]  # leading spaces wider than the room: the indent's, at most
        text += gap
        used += len(gap)
        while used + size > width:  # only a word longer than the room: cut it
            head, word = _cut(word, width - used, whole=used == indent)
            lines.append(text + head)
            text, used = pad, indent
            size = cell_len(word)
        text += word
        used += size
        bare = False
    lines.append(text)
    return lines


def _cut(word: str, room: int, *, whole: bool) -> tuple[str, str]:
    """(as much of ``word`` as fits ``room`` cells, the rest); a character that takes two
    cells, a combining mark with its letter and a sanitizer's placeholder are never parted.
    ``whole``: the line holds nothing else, so it takes one unit at least."""
    used = 0
    at = 0
    for unit in _units(word):
        size = cell_len(unit)
        if used + size > room and (at or not whole):
            break
        used += size
        at += len(unit)
    return word[:at], word[at:]


def _units(word: str) -> list[str]:
    units: list[str] = []
    at = 0
    while at < len(word):
        found = _PLACEHOLDER.match(word, at)
        end = found.end() if found is not None else at + 1
        while end < len(word) and get_character_cell_size(word[end]) == 0:
            end += 1  # a combining mark stays with what it marks
        units.append(word[at:end])
        at = end
    return units
