"""Opening the full-screen comparison: a base of ``IntentusApp``, so every place that starts
a comparison (``d``, ``D``, a picker) opens it the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App

__all__ = ["ComparisonLauncher", "comparison_bindings"]

# Called when the comparison closes, with the path of the difference it was left on.
Closed = Callable[[tuple[object, ...] | None], None]

# The comparison screen and its use cases are imported when first opened: ~19 ms that the
# debugger's first frame does not wait for.


def comparison_bindings() -> list[Any]:
    """The comparison's keys for ``?``: the full screen's and the Diff tab's ``f``."""
    from intentus_tui.tui.screens.compare import ComparisonScreen
    from intentus_tui.tui.widgets.diff_pane import DiffPane

    return [*ComparisonScreen.BINDINGS, *DiffPane.BINDINGS]


if TYPE_CHECKING:
    from pathlib import Path

    from intentus_tui.core.actions import ExecutionDetail, Operand
    from intentus_tui.tui.roots import RootSet
    from intentus_tui.tui.screens.compare import ComparisonScreen


class ComparisonLauncher(App[None]):
    """``open_comparison(a, b)``: A against B, full screen (``escape`` comes back)."""

    roots: RootSet | None = None  # several roots open: each side is named with its root's

    def root_label_of(self, path: Path | None) -> str | None:
        """The label of the root a side's file is in, with several roots open; else None."""
        return self.roots.label_of(path) if self.roots is not None else None

    def with_root(self, label: str, path: Path | None) -> str:
        """``beta:681f325e-…`` for a side in root ``beta`` (several roots); else ``label``."""
        root = self.root_label_of(path)
        return f"{root}:{label}" if root is not None else label

    def side_roots(self, a: ExecutionDetail, b: ExecutionDetail) -> tuple[str | None, str | None]:
        """The roots two executions are in (``root_label_of``), A's then B's."""
        return self.root_label_of(a.path), self.root_label_of(b.path)

    def open_comparison(
        self,
        a: Operand,
        b: Operand,
        at: tuple[object, ...] | None = None,
        closed: Closed | None = None,
    ) -> ComparisonScreen:
        """Push the comparison of two operands (records, snapshots, baselines, runs); a
        record's verdict, which it carries from the core, is shown beside its name, and
        with several roots open, the root its file is in. ``at``: the path of the
        difference to open on (else the first); ``closed``: called on closing with the
        path of the difference it was left on (None: none)."""
        from intentus_tui.tui.screens.compare import ComparisonScreen

        roots = (self.root_label_of(a.path), self.root_label_of(b.path))
        screen = ComparisonScreen(a, b, roots=roots, at=at)
        self.push_screen(screen, closed)
        return screen

    def compare_executions(
        self, a: ExecutionDetail, b: ExecutionDetail, closed: Closed | None = None
    ) -> ComparisonScreen:
        """Two executions (their records, with their verdicts; one without a record compares
        as nothing); ``closed`` as ``open_comparison``'s."""
        from intentus_tui.core.actions import detail_operand

        return self.open_comparison(detail_operand(a), detail_operand(b), closed=closed)
