"""A record IntentusNet 1.3.0 cut short writing its error response, in the debugger: the
timeline's summary and R's dialog (its ``File:`` line) say its writer cut it short, as
its verdict does (most likely cut by its writer, not damaged afterwards). They said
"salvaged from a damaged file" and "File: Damaged record: file ends at …". A file
damaged afterwards (a success cut short) still says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from intentus_tui.core.compare import file_operand
from intentus_tui.tui.presenters.compare_text import side_title_versions
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.intentusnet_world import RealWorld, write_cut_and_damaged
from tests.tui.app_support import SIZE, make_app, settle, timeline_summary


@pytest.fixture
def records(real_world: RealWorld, tmp_path: Path) -> Path:
    """The writer's cut error record, and a success record cut short since (by the test)."""
    return write_cut_and_damaged(real_world, tmp_path / "records")


async def _said(records: Path, *execution_ids: str) -> list[tuple[str, str]]:
    """Of each execution in turn: the timeline's summary, and the text of R's dialog."""
    said = []
    app = make_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for execution_id in execution_ids:
            app.execution_list.select_key(f"{execution_id}.json")
            await settle(pilot)
            summary = timeline_summary(app)
            await pilot.press("R")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            said.append((summary, " ".join(app.screen.body_text.split())))  # it wraps
            await pilot.press("escape")
            await settle(pilot)
    return said


async def test_the_writers_cut_is_told_as_its_verdict_tells_it_damage_as_damage(
    real_world: RealWorld, records: Path
) -> None:
    (summary, dialog), (damaged_summary, damaged_dialog) = await _said(
        records, real_world.error_truncated, real_world.success
    )
    assert "File: Cut short by its writer: file ends at byte " in dialog, dialog
    assert "Damaged record" not in dialog
    assert "most likely cut by its writer, not damaged afterwards" in " ".join(summary.split())
    assert "cut short by its writer: file ends at byte " in summary, summary
    assert "damaged file" not in summary
    # A file damaged afterwards (a success cut short by the test) still says so.
    assert "salvaged from a damaged file: file ends at byte " in damaged_summary
    assert "File: Damaged record: file ends at byte " in damaged_dialog, damaged_dialog
    assert "cut short by its writer" not in damaged_summary + damaged_dialog.lower()


def test_a_comparison_side_is_marked_as_the_same_story(
    real_world: RealWorld, records: Path
) -> None:
    """A comparison's title marked the writer's cut "damaged: compared what was recovered"."""
    cut = records / f"{real_world.error_truncated}.json"
    title = side_title_versions(file_operand(cut.name, cut))[0]
    assert title.endswith(" · cut by its writer: compared what survived"), title
    damaged = records / f"{real_world.success}.json"
    title = side_title_versions(file_operand(damaged.name, damaged))[0]
    assert title.endswith(" · damaged: compared what was recovered"), title


def _labels(text: str) -> list[str]:
    """The labels of a tab's rows that say where the file ends."""
    return re.findall(r"^\s*(Damage|Cut short)\s+file ends at byte", text, re.MULTILINE)


async def test_the_verify_and_post_mortem_tabs_label_where_it_breaks_as_the_same_story(
    real_world: RealWorld, records: Path
) -> None:
    """Under "Cut short by its writer: …" their row of where the file ends was labelled
    "Damage"; now "Cut short", and "Damage" for a file damaged afterwards."""
    labels = {}
    app = make_app(records)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        for execution_id in (real_world.error_truncated, real_world.success):
            app.execution_list.select_key(f"{execution_id}.json")
            await settle(pilot)
            await pilot.press("4")
            await settle(pilot)
            side = app.side_pane
            labels[execution_id] = [
                _labels(side.verify_pane.text),
                _labels(side.postmortem_pane.text),
            ]
    assert labels[real_world.error_truncated] == [["Cut short"], ["Cut short"]], labels
    assert labels[real_world.success] == [["Damage"], ["Damage"]], labels
