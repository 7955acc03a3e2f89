"""``D``: pick what to compare the selected execution with (a snapshot just saved, a saved
snapshot, a Verist baseline, a record file, another execution, or a typed path), then diff."""

from __future__ import annotations

import gc
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from intentus_tui.tui import app as app_module
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.idle_collector import IDLE_SECONDS, PENDING_PASSES
from intentus_tui.tui.screens.compare_picker import ComparePicker
from intentus_tui.tui.screens.confirm import ConfirmScreen
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import SIZE, WIDE, created, fixed_id, settle, wait_for


class NotingApp(IntentusApp):
    """The real app, keeping every notification (``run_test`` hides them)."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))  # relative to the app's module

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes: list[tuple[str, str]] = []

    def notify(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.notes.append((str(kwargs.get("severity", "information")), str(message)))
        super().notify(message, *args, **kwargs)


def make_noting_app(records: Path) -> NotingApp:
    return NotingApp(resolve_root(records), watch=False, directory_label="records", use_cache=False)


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    """Two executions in an ``.intentusnet/records`` layout; B saved as a baseline in
    ``.intentusnet/snapshots`` (where ``s`` saves snapshots)."""
    records = tmp_path / ".intentusnet" / "records"
    record_a = make_record(execution_id=fixed_id(1), created=created(1), intent="Summarize")
    record_b = make_record(
        execution_id=fixed_id(2),
        created=created(2),
        intent="Translate",
        agents=(("fb-primary", "error"), ("fb-secondary", "ok")),
    )
    write_record(records, record_a)
    write_record(records, record_b)
    snapshots = records.parent / "snapshots"
    baseline = save_snapshot(
        snapshot_from_record(record_b), snapshots / "pinned-b.json", metadata={"label": "pin"}
    )
    assert json.loads(baseline.read_text())["format"] == "verist-baseline@1"
    return {"records": records, "a": fixed_id(1), "b": fixed_id(2), "baseline": baseline}


async def select(app: IntentusApp, pilot: Any, execution_id: str) -> None:
    assert app.execution_list.select_key(f"{execution_id}.json")
    await wait_for(
        pilot,
        lambda: app.detail is not None and app.detail_key == f"{execution_id}.json",
        "detail loaded",
    )


async def open_picker(app: IntentusApp, pilot: Any) -> ComparePicker:
    await pilot.press("D")
    picker = app.screen
    assert isinstance(picker, ComparePicker)
    await settle(pilot)  # the candidates are gathered in a worker
    assert picker.index is not None and picker.complete
    return picker


def shown_lines(picker: ComparePicker) -> list[str]:
    """The list as the user reads it: headings and lines, in order."""
    options = picker.options
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def highlighted_line(picker: ComparePicker) -> str:
    index = picker.options.highlighted
    assert index is not None
    candidate = picker.shown[index]
    assert candidate is not None
    return candidate.line


async def paste(pilot: Any, picker: ComparePicker, text: str) -> None:
    """Text pasted into the input at once (a path typed key by key takes seconds in a test)."""
    picker.input.insert_text_at_cursor(text)
    await pilot.pause()


async def save_snapshot_of(app: IntentusApp, pilot: Any, execution_id: str) -> None:
    """Select ``execution_id`` and save its snapshot (``s``, then ``y``)."""
    await select(app, pilot, execution_id)
    await pilot.press("s")
    await pilot.press("y")
    await settle(pilot)


async def pick(app: IntentusApp, pilot: Any, typed: str) -> ComparePicker:
    """D, type ``typed`` (pasted, when a path), enter."""
    picker = await open_picker(app, pilot)
    if "/" in typed:
        await paste(pilot, picker, typed)
    else:
        await pilot.press(*typed)
        await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)
    return picker


def cli_diff_json(a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``intentus-tui diff A B --json``, run in-process."""
    capsys.readouterr()
    code = run_cli(["diff", str(a), str(b), "--json"])
    assert code in (ExitCode.OK, ExitCode.PROBLEMS)
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


@pytest.mark.parametrize("size", [SIZE, (80, 24)])
async def test_D_lists_every_kind_grouped(world: dict[str, Any], size: tuple[int, int]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        assert lines[0] == "── Verist baselines (1)"
        assert (
            lines[1].startswith("baseline ")
            and "pin · pinned-b.json · Translate@1.0 · route" in lines[1]
        )
        assert lines[2] == "── Executions (1)"  # the selected execution is not offered
        assert lines[3].startswith(f"exec     {world['b'][:8]} ") and "Translate" in lines[3]
        status = str(picker.query_one("#picker-status").render())
        assert status == "1 baseline · 1 execution"
        assert highlighted_line(picker) == lines[1]  # the first line, not a heading
        # Everything fits the terminal, the keys line included.
        screen = picker.region
        for part in ("#picker-dialog", "#picker-input", "#picker-options", "#picker-keys"):
            region = picker.query_one(part).region
            assert region.height and screen.contains_region(region), (part, region)
        assert picker.options.region.height >= 4  # room for a few lines even at 80x24


async def test_typing_filters_fuzzily_and_enter_compares_as_the_cli_does(
    world: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record_a = world["records"] / f"{world['a']}.json"
    cli = cli_diff_json(record_a, world["baseline"], capsys)
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        await pilot.press(*"pnnd")  # p..i..n..n..e..d: letters in order, not a substring
        await pilot.pause()
        assert [c.label for c in picker.shown if c is not None] == ["pinned-b.json"]
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ComparePicker)
        # The full-screen comparison opens on top; the Diff tab holds the compact view.
        from intentus_tui.tui.screens.compare import ComparisonScreen

        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert "baseline pinned-b.json" in str(full.query_one("#side-b").render())  # not "snapshot"
        await pilot.press("escape")
        assert app.side_pane.active_tab == "diff"
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.request.left_label == world["a"]
        assert pane.outcome.request.right_label == "pinned-b.json"
        # Verist's three-part comparison, as ``intentus-tui diff`` does it: the same
        # differences, the same paths, in the same order.
        assert "input.intent.name" in pane.outcome.paths  # Summarize vs Translate
        assert cli["compared"] == "snapshots"
        assert pane.outcome.paths == [entry["path_text"] for entry in cli["entries"]]
        summary = str(pane.query_one("#diff-summary").render())
        assert "input ✗ differs" in summary and "output ✗ differs" in summary
        assert app.check_action("next_difference", ()) is True

        # The same execution against its own baseline: nothing differs.
        await select(app, pilot, world["b"])
        await pick(app, pilot, "pin")
        await pilot.press("escape")  # the full-screen comparison: the Diff tab is under it
        assert pane.outcome is not None and pane.outcome.request.left_label == world["b"]
        assert pane.outcome.error is None and list(pane.entries) == []
        assert not [note for note in app.notes if note[0] == "error"]


async def test_another_execution_is_compared_as_a_record(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        await pilot.press(*"trnslt")  # the baseline of B and B itself
        await pilot.pause()
        assert [c.kind for c in picker.shown if c is not None] == ["baseline", "execution"]
        await pilot.press("home", "x")  # an execution's line says "exec" first
        await pilot.pause()
        assert picker.input.value == "xtrnslt"
        assert [c.kind for c in picker.shown if c is not None] == ["execution"]
        await pilot.press("enter")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.comparison is not None
        assert pane.outcome.comparison.compared == "records"
        assert pane.outcome.request.right_label == world["b"]
        assert "envelope.intent.name" in pane.outcome.paths


async def test_s_on_a_tampered_record_warns_in_the_dialog_as_snapshot_does(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """The dialog of ``s`` on a tampered record had no risk line: it says the line the
    command line's ``snapshot`` warns with, and saves when confirmed (a warning, not a
    refusal)."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    stored = json.loads((real_world.records_dir / f"{real_world.success}.json").read_text())
    stored["envelope"]["payload"] = {"text": "changed after it was recorded"}
    (records / f"{real_world.success}.json").write_text(json.dumps(stored))
    warning = (
        "warning: the record fails its integrity check (tampered): the snapshot carries "
        "content that cannot be believed"
    )
    app = make_noting_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        await pilot.press("s")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert warning in dialog.body_text.splitlines()
        shown = str(dialog.query_one("#confirm-lines", Static).render())
        assert " ".join(shown.split()).count(warning) == 1  # on the screen, wrapped or not
        await pilot.press("y")
        await settle(pilot)
        (saved,) = app.saved_snapshots
        assert saved.is_file()


async def test_a_snapshot_saved_with_s_is_listed_first_and_named(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["b"])
        await pilot.press("s")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        (saved,) = app.saved_snapshots
        assert saved.parent == world["records"].parent / "snapshots"
        toast = app.notes[-1][1]
        assert saved.name in toast and "D lists it first" in toast
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        lines = shown_lines(picker)
        assert lines[0] == "── Just saved (1)"
        assert lines[1].startswith(f"saved    {world['b'][:8]} ")
        assert saved.name.startswith(world["b"])  # named by its id and a digest: the id shortened
        assert f"{world['b'][:8]}…{saved.name[len(world['b']) :]}" in lines[1]
        assert lines[2] == "── Verist baselines (1)"
        await pilot.press("enter")  # the just-saved snapshot is highlighted
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.request.right_label == saved.name
        assert pane.outcome.comparison is not None
        assert pane.outcome.comparison.compared == "snapshots"


async def test_escape_cancels_and_nothing_changes(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        tab = app.side_pane.active_tab
        await open_picker(app, pilot)
        await pilot.press(*"trans", "down", "escape")
        await settle(pilot)
        assert not isinstance(app.screen, ComparePicker)
        assert app.side_pane.active_tab == tab
        assert app.side_pane.diff_pane.outcome is None
        assert app.notes == []


async def test_up_and_down_choose(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        first = highlighted_line(picker)
        await pilot.press("down")
        assert highlighted_line(picker).startswith(f"exec     {world['b'][:8]}")  # heading skipped
        await pilot.press("up")
        assert highlighted_line(picker) == first
        await pilot.press("down", "enter")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.request.right_label == world["b"]


async def test_a_real_record_typed_where_a_snapshot_was_expected_is_compared(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record file is accepted wherever a snapshot is: typed in, it is compared as a
    record (never ``missing "stepName"``), as ``intentus-tui diff`` compares it."""
    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    elsewhere = Path(shutil.copy(records / f"{real_world.fallback}.json", tmp_path / "r.json"))
    cli = cli_diff_json(records / f"{real_world.success}.json", elsewhere, capsys)
    app = make_noting_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        picker = await open_picker(app, pilot)
        await paste(pilot, picker, str(elsewhere))
        lines = shown_lines(picker)
        assert lines[0] == "── Typed path (1)" and lines[1] == f"path     {elsewhere}"
        await pilot.press("enter")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.comparison is not None
        assert pane.outcome.comparison.compared == "records" == cli["compared"]
        assert pane.outcome.paths == [entry["path_text"] for entry in cli["entries"]]
        assert not [text for severity, text in app.notes if severity == "error"]
        await pilot.press("escape")  # the full-screen comparison: back to the list
        await settle(pilot)
        # 1.3.0's error record, cut short: what was recovered is compared, and it says so.
        cut = records / f"{real_world.error_truncated}.json"
        await pick(app, pilot, str(cut))
        assert pane.outcome.error is None
        title = str(pane.query_one("#diff-title").render())
        assert "cut short by its writer, compared what was recovered" in title  # not damaged
        assert not any("stepName" in text for _, text in app.notes)


async def test_a_typed_path_that_is_no_file_or_no_snapshot_says_so(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        snapshots = world["records"].parent / "snapshots"
        picker = await pick(app, pilot, f"{snapshots}/nope.json")
        assert app.screen is picker  # nothing chosen: the picker stays
        said = f"no such file: {snapshots}/nope.json"  # as ``intentus-tui diff`` says it
        assert str(picker.query_one("#picker-status").render()) == said
        # The toast says what the status line says (it said "type a file's path": one was).
        assert app.notes[-1] == ("warning", f"Cannot compare: {said}")
        await pilot.press("escape")
        # A file that is neither a snapshot nor a record is refused with the reader's line,
        # as ``intentus-tui diff`` refuses it (it was "Invalid JSON in File …").
        junk = snapshots / "junk.json"
        junk.write_text("[1, 2", "utf-8")
        await pick(app, pilot, str(junk))
        await wait_for(pilot, lambda: app.notes[-1][0] == "error", "an error note")
        assert app.notes[-1][1].startswith("Cannot diff: junk.json: Not a readable record: ")
        assert app.side_pane.diff_pane.outcome is None
        assert app.is_running and app._exception is None


async def test_with_nothing_listed_D_offers_runs_and_help_lists_the_picker(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    app = make_noting_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.check_action("diff_file", ()) is True
        await pilot.press("D")  # no execution to compare: two Active Graph runs, none here
        picker = app.screen
        assert isinstance(picker, ComparePicker)
        await settle(pilot)
        assert str(picker.query_one("#picker-status").render()) == (
            "no Active Graph runs found beside the records: type RUNS.db#RUN_ID"
        )
        await pilot.press("escape")
        await pilot.press("question_mark")  # the help lists it, with its id for a keymap
        help_text = str(app.screen.query_one("#help-body").render())
        lines = help_text.splitlines()
        assert any("Compare with…" in line and "diff-file" in line for line in lines)
        assert "Compare picker (D)" in lines
        assert any("Cancel" in line and "picker.cancel" in line for line in lines)


async def test_no_idle_collection_while_the_picker_is_open(world: dict[str, Any]) -> None:
    """The picker's candidates (100,000 at 100,000 executions) are tuples a full pass walks:
    one began while the picker was open held the key closing it for 220-260 ms."""
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        collector = app.idle_collector
        assert collector is not None
        await open_picker(app, pilot)
        collector.input_seen()
        collector._last_input -= 10 * IDLE_SECONDS  # as if the keys had rested long
        collector._next_allowed = 0.0
        while gc.get_count()[2] < PENDING_PASSES:
            gc.collect(1)
        assert gc.isenabled() and not collector.due()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ComparePicker), "picker closed")
        collector._last_input -= 10 * IDLE_SECONDS
        assert collector.due()  # released with the picker


CLEAN_VERDICT = "✓ succeeded · verified · ↺ yes"
UNTRUSTED_DIFFERENCES = "its differences come from evidence that fails its integrity check"


def _flat(widget: Any) -> str:
    return " ".join(str(widget.render()).split())


async def test_a_typed_tampered_record_shows_its_verdict_and_a_warning(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """A record file typed in (a copy whose envelope payload was edited after its hash was
    taken) is compared with its verdict, made as ``load_detail`` makes it, and a warning:
    in the full screen and in the Diff tab under it."""
    from intentus_tui.core.actions import load_detail
    from intentus_tui.core.paths import sibling_wal_dir
    from intentus_tui.tui.screens.compare import ComparisonScreen

    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    record = json.loads((records / f"{real_world.fallback}.json").read_text("utf-8"))
    record["envelope"]["payload"]["text"] = "refund 1,000,000"
    tampered = tmp_path / "tamp-01.json"
    tampered.write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")
    app = make_noting_app(records)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        await pick(app, pilot, str(tampered))
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert _flat(full.query_one("#side-a")).endswith(CLEAN_VERDICT)
        assert (
            _flat(full.query_one("#side-b"))
            == (  # its file: not named after its id; one line of its half: no "execution"
                f"B {real_world.fallback[:8]} (tamp-01.json) · ⚠ untrusted · tampered · "
                "✗ no (untrusted)"
            )
        )
        assert full.b.verdict == load_detail(tampered, sibling_wal_dir(tampered)).verdict
        warning = _flat(full.query_one("#compare-warning"))
        why = f"({full.b.verdict.integrity_reason})"  # as diff says it
        assert warning == f"⚠ B is untrusted (integrity tampered): {UNTRUSTED_DIFFERENCES} {why}"
        await pilot.press("escape")
        await settle(pilot)
        title = _flat(app.side_pane.diff_pane.query_one("#diff-title"))
        assert f"A {CLEAN_VERDICT}" in title
        rows = str(app.side_pane.diff_pane.query_one("#diff-title").render()).splitlines()
        # Broken between its parts (a row's end parts them, no "·" left ending it).
        assert "B ⚠ untrusted · tampered · ✗ no (untrusted)" in " · ".join(rows)
        assert f"B is untrusted (integrity tampered): {UNTRUSTED_DIFFERENCES}" in title


async def test_an_execution_whose_log_chain_breaks_is_picked_with_its_verdict(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """An execution picked from the list: its verdict is made with its write-ahead log (the
    record hashes fine; its log was edited), as its list row and its detail make it."""
    from intentus_tui.core.actions import load_detail
    from intentus_tui.core.model import Integrity
    from intentus_tui.core.verdict import verdict_of
    from intentus_tui.tui.screens.compare import ComparisonScreen
    from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log

    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    edited = write_record_with_edited_log(base)
    app = make_noting_app(base / "records")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        await pick(app, pilot, "xclssfy")  # the execution of ClassifyTicket
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        verdict = full.b.verdict
        assert verdict is not None and verdict.integrity is Integrity.CHAIN_BROKEN
        assert verdict == load_detail(edited, base / "wal").verdict
        row = app.execution_list.model.summaries[f"{RECORD_WITH_EDITED_LOG}.json"]
        assert verdict_of(row).integrity is Integrity.CHAIN_BROKEN  # as its row says
        assert _flat(full.query_one("#side-b")).endswith(
            "⚠ untrusted · chain broken · ✗ no (untrusted)"
        )
        assert _flat(full.query_one("#compare-warning")) == (
            f"⚠ B is untrusted (integrity chain broken): {UNTRUSTED_DIFFERENCES} "
            f"({verdict.integrity_reason})"
        )


async def test_a_baseline_has_no_verdict(world: dict[str, Any]) -> None:
    from intentus_tui.tui.screens.compare import ComparisonScreen

    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        await pick(app, pilot, "pnnd")
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert _flat(full.query_one("#side-a")).endswith(CLEAN_VERDICT)
        assert _flat(full.query_one("#side-b")) == "B baseline pinned-b.json · Translate/route"
        assert full.b.verdict is None and not full.query_one("#compare-warning").display
        await pilot.press("escape")
        await settle(pilot)
        lines = str(app.side_pane.diff_pane.query_one("#diff-title").render()).splitlines()
        assert lines[1:] == ["B: pinned-b.json", f"A {CLEAN_VERDICT}"]  # no verdict line of B


async def test_a_snapshot_differs_from_its_record_invalidated_since(
    world: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """``s`` saves a snapshot, ``I`` marks the record not replayable, ``D`` compares the record
    with that snapshot: the header differs (as ``intentus-tui diff`` says), never "no changes"."""
    from intentus_tui.tui.screens.compare import ComparisonScreen

    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await save_snapshot_of(app, pilot, world["b"])
        (saved,) = app.saved_snapshots
        await pilot.press("I")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        record = json.loads((world["records"] / f"{world['b']}.json").read_text("utf-8"))
        assert record["header"]["replayable"] is False
        await select(app, pilot, world["b"])
        await pick(app, pilot, "")  # the snapshot just saved is highlighted
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        await pilot.press("escape")
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.request.right_label == saved.name
        assert pane.outcome.paths == ["header.replayable", "header.replayableReason"]
        summary = str(pane.query_one("#diff-summary").render())
        assert "input ✓ same" in summary and "header ✗ differs" in summary
        shown = pane.outcome.paths
    cli = cli_diff_json(world["records"] / f"{world['b']}.json", saved, capsys)
    assert cli["equal"] is False and shown == [entry["path_text"] for entry in cli["entries"]]


async def test_a_comparison_shown_is_made_again_when_its_record_is_invalidated(
    world: dict[str, Any],
) -> None:
    """``D`` first (the record equals its snapshot), then ``I``: the Diff tab compares the
    record again, as it now is, with its new verdict; it went on saying "no changes"."""
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await save_snapshot_of(app, pilot, world["b"])
        await pick(app, pilot, "")  # the snapshot just saved
        await pilot.press("escape")
        await settle(pilot)
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.paths == []
        await pilot.press("I")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert pane.outcome.paths == ["header.replayable", "header.replayableReason"]
        title = str(pane.query_one("#diff-title").render())
        assert "invalidated" in title


async def test_a_marked_record_invalidated_since_is_compared_as_it_now_is(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """``m``, then ``I`` on the marked execution, then ``d`` on another: A was compared as
    it was marked (replayable, two differences fewer than ``diff`` finds), not as its
    file now reads."""
    from tests.real_ids import copy_real_world

    records = copy_real_world(real_world, tmp_path)
    a, b = (records / f"{name}.json" for name in (real_world.success, real_world.fallback))
    app = make_noting_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.success)
        await pilot.press("m")
        await pilot.press("I")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        await select(app, pilot, real_world.fallback)
        await pilot.press("d")
        await settle(pilot)
        outcome = app.side_pane.diff_pane.outcome
        assert outcome is not None and outcome.error is None
        shown = sorted(outcome.paths)
    cli = cli_diff_json(a, b, capsys)
    assert "header.replayable" in shown
    assert shown == sorted(entry["path_text"] for entry in cli["entries"])


async def test_a_copy_of_a_record_is_named_by_its_file_in_the_picker_and_the_comparison(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """Two files hold one id (a copy kept after the incident): the picker's lines told them
    apart by their marks only, and picking the copy named it by the original's id (in the
    comparison's title and the Diff tab), as if the original had been picked."""
    from intentus_tui.tui.screens.compare import ComparisonScreen

    records = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, records)
    shutil.copy(records / f"{real_world.success}.json", records / "copy-kept.json")
    app = make_noting_app(records)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await select(app, pilot, real_world.fallback)
        picker = await open_picker(app, pilot)
        await pilot.press(*real_world.success[:8])
        await pilot.pause()
        lines = [c.line for c in picker.shown if c is not None and c.kind == "execution"]
        assert len(lines) == 2 and any("copy-kept.json" in line for line in lines), lines
        picker.input.value = "copy-kept"
        await pilot.pause()
        labels = [c.label for c in picker.shown if c is not None and c.kind == "execution"]
        assert labels == ["copy-kept.json"]
        await pilot.press("enter")
        await settle(pilot)
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert "(copy-kept.json)" in _flat(full.query_one("#side-b"))
        await pilot.press("escape")
        await settle(pilot)
        title = str(app.side_pane.diff_pane.query_one("#diff-title").render())
        assert "B: copy-kept.json" in title


async def test_a_baseline_edited_since_it_was_saved_is_flagged_in_the_picker(
    world: dict[str, Any],
) -> None:
    """A reference whose content no longer hashes to what it recorded was offered as a good
    one; only the comparison, once made, said so. Its line says it first, where a picker of
    80 columns still shows it."""
    baseline = world["baseline"]
    document = json.loads(baseline.read_text("utf-8"))
    artifact = next(a for a in document["snapshot"]["artifacts"] if "content" in a)
    artifact["content"] = {"edited": artifact["content"]}
    baseline.write_text(json.dumps(document), "utf-8")
    app = make_noting_app(world["records"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        line = shown_lines(picker)[1]
        assert (
            line.startswith("baseline ") and "⚠ changed · pin · pinned-b.json · Translate" in line
        )
        shown = picker.options.render_line(1).text
        assert "⚠ changed · pin" in shown, shown


async def test_two_baselines_of_one_execution_are_told_apart_in_an_80_column_picker(
    world: dict[str, Any],
) -> None:
    """Two baselines of one execution, one edited since it was saved: at 80x24 both lines
    read ``baseline <id> <time>`` and then the title they share, the changed one's cut at
    ``⚠ changed since it was saved ·…``: neither label nor file name was in sight. Each
    now shows its label and the start of its file's name."""
    baseline = world["baseline"]
    document = json.loads(baseline.read_text("utf-8"))
    document["metadata"]["label"] = "nightly"
    artifact = next(a for a in document["snapshot"]["artifacts"] if "content" in a)
    artifact["content"] = {"edited": artifact["content"]}
    (baseline.parent / "nightly-b.json").write_text(json.dumps(document), "utf-8")
    app = make_noting_app(world["records"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        picker = await open_picker(app, pilot)
        shown = [picker.options.render_line(y).text for y in (1, 2)]
    changed = next(line for line in shown if "⚠" in line)
    kept = next(line for line in shown if "⚠" not in line)
    assert "⚠ changed · nightly · nightly-" in changed, shown
    assert "pin · pinned-b" in kept, shown


def cli_diff_text(a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """``intentus-tui diff A B``'s lines, run in-process."""
    capsys.readouterr()
    code = run_cli(["diff", str(a), str(b)])
    assert code in (ExitCode.OK, ExitCode.PROBLEMS)
    return capsys.readouterr().out.splitlines()


async def test_a_baseline_side_is_named_a_baseline(world: dict[str, Any]) -> None:
    """The comparison with a baseline began ``snapshots · …`` (neither side a snapshot: an
    execution and a baseline, as their titles say), and the Diff tab's border, kept while
    the cursor moves, read ``1111aaaa vs snapshot``. Now ``record and baseline · …`` and
    ``… vs baseline``."""
    from intentus_tui.tui.screens.compare import ComparisonScreen

    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        await pick(app, pilot, "pin")
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert "B baseline pinned-b.json" in str(full.query_one("#side-b").render())
        status = str(full.query_one("#compare-status").render())
        assert re.match(r"record and baseline · \d+ changed values · ", status), status
        await pilot.press("escape")
        await settle(pilot)
        await select(app, pilot, world["b"])  # the Diff tab keeps A's comparison
        assert str(app.side_pane.border_title) == f"{world['a'][:8]} vs baseline"


async def test_nothing_hidden_by_the_ignore_rules_is_not_counted_as_the_cli_does(
    world: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """An execution against its own baseline, nothing hidden: the command line's ``diff``
    says nothing of the ignore rules, and the comparison's status line said ``0 hidden by
    ignore rules (i shows)``, then with ``i`` ``ignore rules off: 0 shown (i hides)``. Now
    nothing, then only ``ignore rules off``."""
    from intentus_tui.tui.screens.compare import ComparisonScreen

    record_b = world["records"] / f"{world['b']}.json"
    cli = cli_diff_text(record_b, world["baseline"], capsys)
    assert cli[-1] == "equal" and not [line for line in cli if "hidden by" in line]
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["b"])
        await pick(app, pilot, "pin")
        full = app.screen
        assert isinstance(full, ComparisonScreen)
        status = str(full.query_one("#compare-status").render())
        assert status.endswith(" · equal") and "hidden" not in status, status
        await pilot.press("i")
        status = str(full.query_one("#compare-status").render())
        assert status.endswith(" · ignore rules off") and "0 shown" not in status, status
        await pilot.press("escape")
        await settle(pilot)
        diff_tab = str(app.side_pane.diff_pane.query_one("#diff-status").render())
        assert "(no changes)" in diff_tab and "hidden" not in diff_tab
