"""What the full-screen comparison says in words: each side's title, the status line, the
legend of its marks. Plain strings (sanitized); the screen styles them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.tui.presenters.execution_text import clip
from intentus_tui.tui.presenters.list_rows import display_id, verdict_text

if TYPE_CHECKING:
    from intentus_tui.core.actions import Operand, SideBySide
    from intentus_tui.core.model import Verdict

TITLE_CHARS = 120


def _short_id(operand: Operand) -> str | None:
    if operand.kind != "record":
        return None
    return display_id(str(operand.describe().get("execution_id") or operand.label))


def side_titles(
    a: Operand, b: Operand, verdicts: tuple[Verdict | None, Verdict | None] = (None, None)
) -> tuple[str, str]:
    """Both sides' titles; two records shown under one id (copies of one record) also name
    their files, so that A and B can be told apart."""
    short = _short_id(a)
    copies = short is not None and short == _short_id(b)
    return (
        side_title(a, verdicts[0], with_file=copies),
        side_title(b, verdicts[1], with_file=copies),
    )


def side_title(operand: Operand, verdict: Verdict | None = None, *, with_file: bool = False) -> str:
    """``execution 681f325e · ✓ succeeded · verified · ↺ yes``, ``snapshot pinned.json``,
    ``run r-2 (fork)``; ``with_file``: ``execution 681f325e (copy.json) · …``."""
    described = operand.describe()
    if operand.kind == "record":
        ident = described.get("execution_id") or operand.label
        text = f"execution {display_id(str(ident))}"
        if with_file and operand.path is not None:
            text += f" ({operand.path.name})"
        if verdict is not None:
            text += f" · {verdict_text(verdict)}"
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
