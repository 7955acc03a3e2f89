"""``D`` lists every execution, an execution known only from its write-ahead log too: it has
no record to compare (``intentus-tui diff`` refuses it), so its line says so, is dimmed and
cannot be chosen; enter on it says why. The same in a bundle opened read-only as in the
directory it was made from."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.bundle.read import extract_bundle
from intentus_tui.core.bundle.write import bundle_executions
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.read_only import mark_read_only
from intentus_tui.tui.screens.compare_picker import ComparePicker
from tests.core.bundle.support import build_bundle_world
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import settle
from tests.tui.test_app_diff_file import NotingApp, open_picker, select, shown_lines


@pytest.mark.parametrize("opened_as", ["bundle", "directory"])
async def test_an_execution_with_no_record_is_listed_and_cannot_be_chosen(
    real_world: RealWorld, tmp_path: Path, opened_as: str
) -> None:
    world = build_bundle_world(real_world, tmp_path / "incident")
    ids = [world.success, world.fallback, world.wal_only]
    root = world.base
    if opened_as == "bundle":
        output = tmp_path / "evidence.tar.gz"
        bundle_executions(resolve_root(world.base), ids, output)
        root = tmp_path / "copy"
        root.mkdir()
        extract_bundle(output, root)
        mark_read_only(root, "a bundle (evidence.tar.gz), opened read-only")
    else:
        for path in world.records.glob("*.json"):  # the directory holds what the bundle holds
            if path.stem not in ids:
                path.unlink()
    app = NotingApp(resolve_root(root), watch=False, directory_label="x", use_cache=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert len(app.execution_list.model.summaries) == 3
        await select(app, pilot, world.success)
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        executions = lines[lines.index("── Executions (2)") + 1 :]
        assert len(executions) == 2  # every execution but the selected one
        (wal_line,) = [line for line in executions if world.wal_only[:8] in line]
        assert "no record to compare" in wal_line
        wal_row = lines.index(wal_line)
        disabled = [picker.options.get_option_at_index(i).disabled for i in range(len(lines))]
        assert [i for i, off in enumerate(disabled) if off and not lines[i].startswith("──")] == [
            wal_row
        ]
        status = str(picker.query_one("#picker-status").render())
        assert status.endswith("2 executions (1 with no record)")
        # Up and down never stop on it; typed, it is the best match, and enter says why.
        for _ in range(len(lines)):
            await pilot.press("down")
            assert picker.options.highlighted != wal_row
        await pilot.press(*world.wal_only[:8])
        await pilot.pause()
        assert picker.shown[0] is not None and picker.shown[0].label == world.wal_only
        assert picker.options.highlighted is None  # not a weaker match the user did not mean
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ComparePicker)  # nothing was compared
        assert app.notes[-1] == (
            "warning",
            f"Cannot compare: {world.wal_only} has no record file, only a write-ahead log: "
            "there is nothing to compare",
        )
        assert app.side_pane.diff_pane.outcome is None


async def test_a_file_with_nothing_to_compare_cannot_be_chosen(
    real_world: RealWorld, tmp_path: Path
) -> None:
    # An empty file's line could be chosen, and enter then said "Cannot diff: empty: File
    # is empty": it is dimmed, as a log alone is, and says why.
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    name = f"{real_world.success}.json"
    (records / name).write_bytes((real_world.records_dir / name).read_bytes())
    (records / "empty.json").write_bytes(b"")
    app = NotingApp(resolve_root(records), watch=False, directory_label="x", use_cache=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        await pilot.press(*"empty")
        await pilot.pause()
        first = picker.shown[0]
        assert first is not None and "nothing to compare" in first.unavailable
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ComparePicker)  # nothing was compared
        assert app.notes[-1][0] == "warning" and "nothing to compare" in app.notes[-1][1]
        assert "empty.json" in app.notes[-1][1]  # the file, by its name
