"""Opening the full-screen comparison: a base of ``IntentusApp``, so every place that starts
a comparison (``d``, ``D``, a picker) opens it the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

__all__ = ["ComparisonLauncher", "comparison_bindings"]

# The comparison screen and its use cases are imported when first opened: ~19 ms that the
# debugger's first frame does not wait for.


def comparison_bindings() -> list[Any]:
    """The comparison's keys for ``?``: the full screen's and the Diff tab's ``f``."""
    from intentus_tui.tui.screens.compare import ComparisonScreen
    from intentus_tui.tui.widgets.diff_pane import DiffPane

    return [*ComparisonScreen.BINDINGS, *DiffPane.BINDINGS]


if TYPE_CHECKING:
    from intentus_tui.core.actions import ExecutionDetail, Operand
    from intentus_tui.tui.screens.compare import ComparisonScreen


class ComparisonLauncher(App[None]):
    """``open_comparison(a, b)``: A against B, full screen (``escape`` comes back)."""

    def open_comparison(self, a: Operand, b: Operand) -> ComparisonScreen:
        """Push the comparison of two operands (records, snapshots, baselines, runs); a
        record's verdict, which it carries from the core, is shown beside its name."""
        from intentus_tui.tui.screens.compare import ComparisonScreen

        screen = ComparisonScreen(a, b)
        self.push_screen(screen)
        return screen

    def compare_executions(self, a: ExecutionDetail, b: ExecutionDetail) -> ComparisonScreen:
        """Two executions (their records, with their verdicts; one without a record compares
        as nothing)."""
        from intentus_tui.core.actions import detail_operand

        return self.open_comparison(detail_operand(a), detail_operand(b))
