"""Two Active Graph runs side by side in the debugger: ``D`` lists the runs of the run
databases beside the records, one picked is A, a second picker of runs picks B, and they are
compared as ``intentus-tui diff RUNS.db#A RUNS.db#B`` compares them (one use case), their
events numbered ``#8``. Before, no key reached a run: the picker listed none, and a typed
``notes.db`` said to name a run as ``notes.db#RUN_ID``, which it then called "no file at
this path"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.compare_picker import ComparePicker
from tests.activegraph_world import NotesWorld, notes_world
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import screen_text, settle, wait_for
from tests.tui.test_app_diff_file import (
    make_noting_app,
    open_picker,
    paste,
    select,
    shown_lines,
)


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))


@pytest.fixture
def project(tmp_path: Path, real_world: RealWorld, notes: NotesWorld) -> Path:
    """Real 1.3.0 records in ``.intentusnet/records``, the Active Graph store beside them."""
    base = tmp_path / "project"
    shutil.copytree(real_world.records_dir, base / ".intentusnet" / "records")
    shutil.copy(notes.path, base / "notes.db")
    return base


def _cli_divergence(db: Path, a: str, b: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    run_cli(["diff", f"{db}#{a}", f"{db}#{b}"])
    out = capsys.readouterr().out.splitlines()
    return next(line for line in out if line.startswith("first divergence: "))


def _run_line(picker: ComparePicker, run_id: str) -> int:
    """The option of the run ``run_id``."""
    found = [i for i, c in enumerate(picker.shown) if c is not None and c.key.endswith(run_id)]
    assert found, f"run {run_id} not offered: {shown_lines(picker)}"
    return found[0]


async def _pick_run(app: Any, pilot: Any, picker: ComparePicker, run_id: str) -> ComparePicker:
    """Highlight the run ``run_id`` in the first picker, enter: the picker of its B."""
    picker.options.highlighted = _run_line(picker, run_id)
    await pilot.press("enter")
    await settle(pilot)
    second = app.screen
    assert isinstance(second, ComparePicker)
    return second


async def _compare_with_run(app: Any, pilot: Any, second: ComparePicker, run_id: str) -> None:
    """Highlight the run ``run_id`` as B, enter: the two runs compared on screen."""
    second.options.highlighted = _run_line(second, run_id)
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ComparisonScreen) and app.screen.compared is not None,
        "the runs compared",
    )


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_D_picks_two_runs_and_compares_them_as_the_cli_does(
    project: Path,
    notes: NotesWorld,
    real_world: RealWorld,
    size: tuple[int, int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = project / "notes.db"
    app = make_noting_app(project)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        first = shown_lines(picker)
        second = await _pick_run(app, pilot, picker, notes.parent)
        assert second.index is not None and second.complete
        title = str(second.query_one("#picker-title").render())
        offered = [c.key for c in second.shown if c is not None]
        status = str(second.query_one("#picker-status").render())
        await _compare_with_run(app, pilot, second, notes.grandchild)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        said = str(screen.query_one("#compare-status").render())
        rows = [row.a for row in screen.compared.timeline if row.a is not None]
        await pilot.press("escape")
        await settle(pilot)
        tab = str(app.side_pane.diff_pane.query_one("#diff-summary").render())
    runs = [line for line in first if line.startswith("run ")]
    assert len(runs) == 4 and any("Active Graph runs (4)" in line for line in first)
    assert any(line.startswith(f"run      {notes.grandchild} ") for line in runs)
    assert any("grandchild · fork of child at #11 · notes.db" in line for line in runs)
    assert title == f"Compare run notes.db#{notes.parent} with…"
    assert offered == [f"{db}#{run}" for run in (notes.child, notes.grandchild, notes.sibling)]
    assert status == "3 runs"  # no executions: a run compares with a run only
    cli = _cli_divergence(db, notes.parent, notes.grandchild, capsys)
    # The first event the aligned timelines set apart: the parent's #8, facing a gap.
    assert cli == "first divergence: event #8 (A seq 8): only in A (behavior.completed)"
    assert cli.split(": only")[0] in " ".join(said.split())  # 80 columns cut what follows
    assert any(row.startswith("#8 evt_008 behavior.completed") for row in rows)
    lineage = " ".join(tab.split())
    assert "lineage A is B's grandparent" in lineage
    # Its fork points as the picker's line numbers them ("at #11"), not "(at evt_011)".
    assert "(at #7)" in lineage and "(at #11)" in lineage and "evt_0" not in lineage


async def test_a_run_typed_as_db_hash_id_and_what_cannot_be_its_b(
    project: Path, notes: NotesWorld, real_world: RealWorld
) -> None:
    db = project / "notes.db"
    app = make_noting_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        await paste(pilot, picker, f"{db}#{notes.sibling}")
        typed = shown_lines(picker)
        await pilot.press("enter")
        await settle(pilot)
        second = app.screen
        assert isinstance(second, ComparePicker)
        offered = [c.key for c in second.shown if c is not None]
        # A record is no B of a run: said, nothing compared.
        record = project / ".intentusnet" / "records" / f"{real_world.fallback}.json"
        await paste(pilot, second, str(record))
        await pilot.press("enter")
        await settle(pilot)
        after = app.screen
        notes_said = [text for _, text in app.notes]
    assert typed[:2] == ["── Typed path (1)", f"run      {db}#{notes.sibling}"]
    assert f"{db}#{notes.sibling}" not in offered and len(offered) == 3
    assert not isinstance(after, ComparisonScreen | ComparePicker)
    assert (
        f"Cannot diff: notes.db#{notes.sibling} is an Active Graph run: it compares with "
        "another run only (pick one, or type RUNS.db#RUN_ID)"
    ) in notes_said


async def test_with_no_execution_D_still_compares_two_runs(
    tmp_path: Path, notes: NotesWorld
) -> None:
    # An Active Graph project with no IntentusNet record yet: D did nothing at all.
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    shutil.copy(notes.path, tmp_path / "notes.db")
    app = make_noting_app(tmp_path / ".intentusnet" / "records")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        picker = await open_picker(app, pilot)
        title = str(picker.query_one("#picker-title").render())
        lines = shown_lines(picker)
        second = await _pick_run(app, pilot, picker, notes.sibling)
        await _compare_with_run(app, pilot, second, notes.child)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        sides = (screen.a.run, screen.b.run)
    assert title == "Nothing selected: compare two Active Graph runs, A first…"
    assert lines[0] == "── Active Graph runs (4): enter makes one A, then pick the run B"
    assert [run.run_id for run in sides if run is not None] == [notes.sibling, notes.child]


async def test_a_hostile_run_label_reaches_no_terminal_unsanitized(
    project: Path, notes: NotesWorld, real_world: RealWorld
) -> None:
    import sqlite3

    hostile = "\x1b]0;pwned\x07[bold red]child[/]\x1b[2J"
    db = sqlite3.connect(project / "notes.db")
    db.execute("UPDATE runs SET label = ? WHERE run_id = ?", (hostile, notes.child))
    db.commit()
    db.close()
    app = make_noting_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        second = await _pick_run(app, pilot, picker, notes.child)
        second_lines = shown_lines(second)
        await _compare_with_run(app, pilot, second, notes.grandchild)
        shown = screen_text(app)
    child = next(line for line in lines if line.startswith(f"run      {notes.child}"))
    assert "[bold red]child[/]" in child  # literal text, not markup
    assert not [text for text in (*lines, *second_lines, shown) if "\x1b" in text or "\x07" in text]
    assert "fork of" in " ".join(second_lines)  # the grandchild's parent, named by that label


async def test_a_run_store_in_the_records_directory_opened_is_offered(
    tmp_path: Path, notes: NotesWorld, real_world: RealWorld
) -> None:
    """A plain directory of records opened itself, the run store among the records: ``D``
    offered none of its runs (only ``RUNS.db#ID`` typed reached them)."""
    records = tmp_path / "records-here"
    shutil.copytree(real_world.records_dir, records)
    shutil.copy(notes.path, records / "notes.db")
    app = make_noting_app(records)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        offered = [c.key for c in picker.shown if c is not None and c.kind == "run"]
    print("\n".join(lines))
    assert any(line.startswith("── Active Graph runs (4)") for line in lines)
    db = records / "notes.db"
    assert offered == [
        f"{db}#{run}" for run in (notes.parent, notes.child, notes.grandchild, notes.sibling)
    ]


async def test_D_then_enter_compares_with_the_likeliest_not_a_run(
    project: Path, notes: NotesWorld, real_world: RealWorld
) -> None:
    """Runs are listed before the executions: ``D`` then ``enter`` picked the first run
    (A of two runs, not a comparison of the selected execution). The line highlighted first
    is the likeliest B: the selected execution's own snapshot, before another's, and with
    none, an execution; runs after."""
    from intentus_tui.core.actions import load_detail, save_snapshot
    from intentus_tui.core.compare.targets import snapshot_directory
    from intentus_tui.core.paths import resolve_root

    records = project / ".intentusnet" / "records"
    app = make_noting_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        first = picker.highlighted
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComparisonScreen), "compared")
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        b_kind = screen.b.kind
    assert first is not None and first.kind == "execution", first
    assert b_kind == "record"
    # Snapshots of another execution and of the selected one: its own is highlighted.
    directory = snapshot_directory(resolve_root(project))
    own_file = save_snapshot(load_detail(records / f"{real_world.success}.json"), directory)
    save_snapshot(load_detail(records / f"{real_world.fallback}.json"), directory)
    os.utime(own_file, (1_700_000_000, 1_700_000_000))  # older: listed after the other's
    app = make_noting_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        own = picker.highlighted
        lines = shown_lines(picker)
    assert own is not None and own.kind == "snapshot", lines
    assert own.path is not None and own.path.name.startswith(real_world.success), lines


async def test_a_run_store_written_while_watching_an_empty_directory_is_said(
    tmp_path: Path, notes: NotesWorld
) -> None:
    """The runs were looked for once, after the scan: a run store that came later, into a
    watched directory holding no record, was never said (the watch follows record files).
    An empty, watched list looks again every few seconds."""
    from tests.tui.app_support import make_app

    directory = tmp_path / "runs"
    directory.mkdir()
    app = make_app(directory, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await settle(pilot)
        assert "Active Graph" not in str(app.execution_list.empty_message)
        shutil.copy(notes.path, directory / "notes.db")
        await wait_for(pilot, lambda: app.runs_here, "runs found", timeout=10)
        await settle(pilot)
        assert "Active Graph runs are here: press D to compare two." in str(
            app.execution_list.empty_message
        )


@pytest.mark.parametrize("keymap", [{}, {"diff-file": "C"}])
async def test_a_directory_of_runs_alone_says_how_to_compare_them(
    tmp_path: Path, notes: NotesWorld, keymap: dict[str, str]
) -> None:
    """A directory holding a run store and no record said "No execution records" and no
    more: nothing told that ``D`` compares its runs. One line says so, with the key the
    keymap binds; a directory with no run store says nothing of runs."""
    from tests.tui.app_support import make_app

    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(notes.path, runs / "notes.db")
    empty = tmp_path / "empty"
    empty.mkdir()
    said: dict[str, str] = {}

    async def empty_list_of(directory: Path, runs_found: bool) -> str:
        app = make_app(directory, keymap=keymap)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.scan_done, "scan")
            await settle(pilot)
            await wait_for(pilot, lambda: app.runs_here == runs_found, "runs looked for")
            return str(app.execution_list.empty_message)

    said["runs"] = await empty_list_of(runs, True)
    said["empty"] = await empty_list_of(empty, False)
    key = keymap.get("diff-file", "D")
    note = f"Active Graph runs are here: press {key} to compare two."
    assert "No execution records" in said["runs"] and note in said["runs"], said["runs"]
    assert "No execution records" in said["empty"] and "Active Graph" not in said["empty"]


async def test_a_run_typed_as_diff_takes_it_from_the_current_directory(
    project: Path,
    notes: NotesWorld,
    real_world: RealWorld,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`notes.db#ID` typed as `intentus-tui diff notes.db#ID …` takes it, from the directory
    the debugger runs in: without a `/` it was letters to filter by, and a mistyped id said
    "nothing matches: type fewer letters, or a path", where `diff` lists the store's runs.
    A wrong id picked as A is said at once, in diff's words: it was said only once a B was
    picked, the picker of B opened for a run that is not there."""
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert run_cli(["diff", "notes.db#nope", f"notes.db#{notes.sibling}"]) == 2
    diff_said = capsys.readouterr().err.strip().removeprefix("intentus-tui: ")
    assert diff_said.startswith("notes.db: no run 'nope'; runs: "), diff_said
    app = make_noting_app(project)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.scan_done, "scan")
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        await paste(pilot, picker, "notes.db#nope")
        typed = shown_lines(picker)
        assert typed[:2] == ["── Typed path (1)", "run      notes.db#nope"], typed
        await pilot.press("enter")  # A: the run typed, read as diff reads it
        await wait_for(pilot, lambda: bool(app.notes), "said")
        await settle(pilot)
        after = app.screen
        notes_said = [text for _, text in app.notes]
    assert notes_said == [f"Cannot diff: {diff_said}"], notes_said
    assert not isinstance(after, ComparePicker | ComparisonScreen)  # no B asked for
