"""What a comparison says in words: each side's title and verdict, the warning about an
untrusted side, the status line, the legend of its marks. Plain strings (sanitized); the
full-screen comparison and the Diff tab style them.

A side's verdict is the one its operand carries from the core (``Operand.verdict``, made as
every other screen's): it is shown, never made, here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters.execution_text import clip
from intentus_tui.tui.presenters.list_rows import display_id, verdict_text

if TYPE_CHECKING:
    from intentus_tui.core.actions import Operand, SideBySide

TITLE_CHARS = 120
WARNING_CHARS = 300


def _short_id(operand: Operand) -> str | None:
    if operand.kind != "record":
        return None
    return display_id(str(operand.describe().get("execution_id") or operand.label))


def side_titles(a: Operand, b: Operand) -> tuple[str, str]:
    """Both sides' titles; two records shown under one id (copies of one record) also name
    their files, so that A and B can be told apart."""
    short = _short_id(a)
    copies = short is not None and short == _short_id(b)
    return side_title(a, with_file=copies), side_title(b, with_file=copies)


def side_title(operand: Operand, *, with_file: bool = False) -> str:
    """``execution 681f325e · ✓ succeeded · verified · ↺ yes`` (the verdict the record
    carries), ``snapshot pinned.json``, ``run r-2 (fork)``; ``with_file``: ``execution
    681f325e (copy.json) · …``."""
    described = operand.describe()
    if operand.kind == "record":
        ident = described.get("execution_id") or operand.label
        text = f"execution {display_id(str(ident))}"
        if with_file and operand.path is not None:
            text += f" ({operand.path.name})"
        if operand.verdict is not None:
            text += f" · {verdict_text(operand.verdict)}"
    elif operand.kind == "snapshot":
        text = f"snapshot {operand.label}"
        step = described.get("step_name")
        if step:
            text += f" · {described.get('workflow_id')}/{step}"
    else:
        label = described.get("label")
        text = f"run {described.get('run_id')}" + (f" ({label})" if label else "")
    if operand.note:
        text += " · damaged: compared what was recovered"
    return clip(text, TITLE_CHARS)


def side_verdict(operand: Operand | None) -> str | None:
    """The verdict a side carries, as every row shows it (``⚠ untrusted · TAMPERED · ✗
    untrust``); None for a snapshot, baseline or run, which have none."""
    if operand is None or operand.verdict is None:
        return None
    return verdict_text(operand.verdict)


def untrusted_warnings(a: Operand | None, b: Operand | None) -> list[str]:
    """``⚠ B is untrusted (integrity tampered): its differences come from evidence that fails
    its integrity check``, one for each side whose verdict is untrusted (the core's words,
    as ``intentus-tui diff`` prints them); sanitized."""
    from intentus_tui.core.actions import untrusted_warning

    out: list[str] = []
    for name, operand in (("A", a), ("B", b)):
        text = untrusted_warning(name, operand) if operand is not None else None
        if text is not None:
            out.append(clip(f"⚠ {text}", WARNING_CHARS))
    return out


def hidden_text(layout: SideBySide, rules_on: bool) -> str:
    """The hidden-difference count, always: ``6 hidden by ignore rules (i shows them)``."""
    hidden = layout.hidden
    if not rules_on:
        return f"ignore rules off: {hidden:,} shown (i hides)"
    if not layout.comparison.ignore:
        return "no ignore rules"
    return f"{hidden:,} hidden by ignore rules (i shows)"


def counts_text(layout: SideBySide, rules_on: bool) -> str:
    shown = layout.shown(rules_on)
    comparison = layout.comparison
    if comparison.equal and rules_on:
        return "equal"
    if shown == 0 and not comparison.equal:
        return "different (not value by value: see the notes)"
    return f"{shown:,} difference{'' if shown == 1 else 's'}"


def divergence_text(layout: SideBySide, rules_on: bool) -> str | None:
    """Where the event streams first part, in the words of the command line's ``diff`` and
    the Diff tab: ``events[1] (seq - / 2): only in B (MODEL_CALL)``."""
    divergence = layout.divergence(rules_on)
    return None if divergence is None else sanitize_line(divergence.describe())


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
