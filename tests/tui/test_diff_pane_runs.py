"""The Diff tab on two Active Graph runs: lineage and objects/relations, as the CLI shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.actions import run_operand
from tests.activegraph_world import NotesWorld, notes_world
from tests.tui.app_support import SIZE
from tests.tui.side_pane_harness import SidePaneApp, finish_workers


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))


async def test_a_grandchild_against_its_grandparent(notes: NotesWorld) -> None:
    app = SidePaneApp(None, tab="diff")
    left = run_operand("parent", notes.path, notes.parent)
    right = run_operand("grandchild", notes.path, notes.grandchild)
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_comparison("parent", left, "grandchild", right)
        await finish_workers(pilot)
        pane = app.side.diff_pane
        summary = str(pane.query_one("#diff-summary").render())
        outcome = pane.outcome
    assert outcome is not None and outcome.error is None
    lines = [line.strip() for line in summary.splitlines()]
    assert lines[0].startswith("events 11 / 14")
    assert any(line.startswith("lineage A is B's grandparent") for line in lines)
    lineage = " ".join(summary.split())
    assert "(at #7)" in lineage and "(at #11)" in lineage and "(at evt_" not in lineage
    assert "shared prefix 7 events   inherited 7" in lines
    assert "events (as activegraph diff) 6 shared  2 only A  6 only B" in lines
    assert "objects 1 shared  0 only A  1 only B  3 differ" in lines
    assert "relations 1 shared  1 only A  1 only B  0 differ" in lines
    assert "note#2 differs (A v1 ↔ B v3)" in lines
    assert "rel_002 only in A (note#2 --cites--> note#3)" in lines


async def test_two_runs_that_share_an_ancestor(notes: NotesWorld, tmp_path: Path) -> None:
    app = SidePaneApp(None, tab="diff")
    left = run_operand("sibling", notes.path, notes.sibling)
    right = run_operand("grandchild", notes.path, notes.grandchild)
    async with app.run_test(size=SIZE) as pilot:
        app.side.show_comparison("sibling", left, "grandchild", right)
        await finish_workers(pilot)
        summary = str(app.side.diff_pane.query_one("#diff-summary").render())
    assert f"A and B share the ancestor {notes.parent}" in summary
    assert "shared prefix 3 events   inherited 3" in summary
