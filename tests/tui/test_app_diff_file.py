"""``D``: diff the selected execution against a snapshot or Verist baseline file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record
from intentus_tui.tui import app as app_module
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.path_prompt import PathPrompt
from tests.factories import make_record, write_record
from tests.tui.app_support import SIZE, created, fixed_id, settle, wait_for


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


async def diff_against(app: IntentusApp, pilot: Any, typed: str) -> PathPrompt:
    """Press D, check the prompt suggests the snapshots directory, type ``typed``, enter."""
    await pilot.press("D")
    prompt = app.screen
    assert isinstance(prompt, PathPrompt)
    snapshots = app.root.records_dir.parent / "snapshots"
    assert prompt.input.value == f"{snapshots}/"
    await pilot.press(*typed, "enter")
    await settle(pilot)
    return prompt


def cli_diff_json(a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``intentus-tui diff A B --json``, run in-process."""
    capsys.readouterr()
    code = run_cli(["diff", str(a), str(b), "--json"])
    assert code in (ExitCode.OK, ExitCode.PROBLEMS)
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


async def test_diff_vs_baseline_file_shows_the_differences(
    world: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record_a = world["records"] / f"{world['a']}.json"
    cli = cli_diff_json(record_a, world["baseline"], capsys)
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        await diff_against(app, pilot, "pinned-b.json")
        assert not isinstance(app.screen, PathPrompt)
        # The full-screen comparison opens on top; the Diff tab holds the compact view.
        from intentus_tui.tui.screens.compare import ComparisonScreen

        full = app.screen
        assert isinstance(full, ComparisonScreen)
        assert "snapshot pinned-b.json" in str(full.query_one("#side-b").render())
        await pilot.press("escape")
        assert app.side_pane.active_tab == "diff"
        pane = app.side_pane.diff_pane
        assert pane.outcome is not None and pane.outcome.error is None
        assert pane.outcome.request.left_label == world["a"]
        assert pane.outcome.request.right_label == "pinned-b.json"
        paths = pane.outcome.paths
        assert paths, "A and B differ"
        # Verist's three-part comparison (input, output, commands), as ``intentus-tui diff``
        # does it: the same differences, the same paths, in the same order.
        assert "input.intent.name" in paths  # Summarize vs Translate
        assert not any("workflowId" in path for path in paths)  # not the whole snapshot JSON
        assert cli["compared"] == "snapshots"
        assert paths == [entry["path_text"] for entry in cli["entries"]]
        assert len(pane.entries) == len(paths)
        summary = str(pane.query_one("#diff-summary").render())
        assert "input ✗ differs" in summary and "output ✗ differs" in summary
        assert app.check_action("next_difference", ()) is True
        title = str(pane.query_one("#diff-title").render())
        assert "pinned-b.json" in title and world["a"] in title

        # The same execution against its own baseline: nothing differs.
        await select(app, pilot, world["b"])
        await diff_against(app, pilot, "pinned-b.json")
        await pilot.press("escape")
        assert pane.outcome is not None and pane.outcome.request.left_label == world["b"]
        assert pane.outcome.error is None
        assert list(pane.entries) == []
        assert not [note for note in app.notes if note[0] == "error"]


async def test_missing_file_is_an_error_notification_not_a_crash(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        await diff_against(app, pilot, "nope.json")
        await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notes), "an error note")
        errors = [text for severity, text in app.notes if severity == "error"]
        assert "not found" in errors[0] and "nope.json" in errors[0]
        assert app.side_pane.diff_pane.outcome is None  # nothing was compared
        assert app.is_running and app._exception is None

        # A file that is not a snapshot is refused with a message, too.
        (world["records"].parent / "snapshots" / "junk.json").write_text("[1, 2", "utf-8")
        await diff_against(app, pilot, "junk.json")
        await wait_for(pilot, lambda: len(app.notes) >= 2, "a second note")
        assert app.notes[-1][0] == "error" and "Invalid JSON" in app.notes[-1][1]
        assert app.side_pane.diff_pane.outcome is None


async def test_escape_cancels_and_nothing_changes(world: dict[str, Any]) -> None:
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        tab = app.side_pane.active_tab
        await pilot.press("D")
        assert isinstance(app.screen, PathPrompt)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, PathPrompt)
        assert app.side_pane.active_tab == tab
        assert app.side_pane.diff_pane.outcome is None
        assert app.notes == []


async def test_no_record_dims_the_key(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    app = make_noting_app(records)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.check_action("diff_file", ()) is None
        await pilot.press("D")
        assert not isinstance(app.screen, PathPrompt)
        await pilot.press("question_mark")  # the help lists it, with its id for a keymap
        help_text = str(app.screen.query_one("#help-body").render())
        assert any(
            "Diff vs file" in line and "diff-file" in line for line in help_text.splitlines()
        )
