"""A message (the empty list's) wrapped to a pane's width: pure text, no Textual.

A word too long for a line (a path) is broken after one of its ``/`` where it can be, and
no line is left holding only punctuation: ``/tmp/…/records`` filling the width left its
final "." alone on the line under it."""

from __future__ import annotations

import textwrap


def wrap_message(text: str, width: int) -> list[str]:
    """``text``'s lines wrapped to ``width`` characters (an empty line stays one)."""
    return [
        wrapped
        for line in text.splitlines()
        for wrapped in (_wrap_line(line, max(width, 2)) or [""])
    ]


def _wrap_line(line: str, width: int) -> list[str]:
    lines: list[str] = []
    for wrapped in textwrap.wrap(
        line, width, break_on_hyphens=False, break_long_words=False
    ):  # a word longer than the line is alone on its line(s): broken below
        lines += _broken(wrapped, width) if len(wrapped) > width else [wrapped]
    return _no_punctuation_alone(lines)


def _broken(word: str, width: int) -> list[str]:
    """A word longer than ``width`` in pieces, each cut after its last ``/`` that fits (a
    path's directories stay whole) in the line's second half, else at ``width``."""
    pieces: list[str] = []
    while len(word) > width:
        cut = word.rfind("/", 0, width) + 1
        if cut <= width // 2 or not word[cut:].strip(_PUNCTUATION):  # or only "." after it
            cut = width
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word] if word else pieces


_PUNCTUATION = ".,;:!?…)]}\"'"


def _no_punctuation_alone(lines: list[str]) -> list[str]:
    """Lines where none holds only punctuation: such a line takes the last character of
    the line before it (``recor`` / ``ds.`` rather than ``records`` / ``.``)."""
    for i in range(1, len(lines)):
        if lines[i] and not lines[i].strip(_PUNCTUATION) and len(lines[i - 1]) > 1:
            before = lines[i - 1].rstrip()
            lines[i - 1], lines[i] = before[:-1], before[-1] + lines[i]
    return lines
