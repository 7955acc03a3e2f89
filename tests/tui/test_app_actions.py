"""Keys that act on the selected execution, help, keymaps, the command palette, WAL-only rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from intentus_tui.demo.writer import build_demo_world
from intentus_tui.tui.screens.compare import ComparisonScreen
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.screens.help import HelpScreen
from tests.intentusnet_world import RealWorld, with_a_copy
from tests.tui.app_support import (
    SIZE,
    event_lines,
    make_app,
    mark_and_compare,
    settle,
    timeline_summary,
    wait_for,
    write_world,
)


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """An ``.intentusnet/records`` layout: snapshots then go to ``.intentusnet/snapshots``."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    return records


async def test_help_lists_every_binding_with_its_id_and_closes(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-body").render())
        for binding_id in (
            "cycle-sort",
            "cycle-view",
            "toggle-live",
            "replay",
            "force-replay",
            "invalidate",
            "save-snapshot",
            "list.down",
            "timeline.next-fallback",
            "timeline.prev-error",
            "filter.clear",
            "failures-first",
            "compare.next",
            "compare.ignore",
            "compare.close",
            "diff.full-screen",
        ):
            assert binding_id in text
        assert "keymap.toml" in text
        # the legend of the list's marks: every outcome, integrity and replay mark
        for mark in ("⚠ untrusted", "✗ failed", "◌ in flight", "? unknown", "TAMPERED (#!)"):
            assert mark in text
        assert "CHAIN ✗ (#✗)" in text and "✗ operator" in text and "↺ yes" in text
        # and the full-screen comparison's marks
        assert "≈" in text and "a gap: the line or event is only on the other side" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_palette_has_one_help_entry(records_dir: Path) -> None:
    """Textual's own "Keys" panel stood beside the app's "Help: keys": two entries for one
    question, the first one a panel that knows nothing of this app's keys by id."""
    write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert [t for t in titles if "key" in t.lower()] == ["Help: keys"]
        assert "Quit" in titles and "Theme" in titles  # Textual's other commands stay


async def test_a_user_keymap_remaps_bindings_by_id(records_dir: Path) -> None:
    write_world(records_dir)
    app = make_app(records_dir, keymap={"cycle-sort": "ctrl+o", "list.down": "n"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        model = app.execution_list.model
        await pilot.press("o")
        assert model.sort.name == "newest"  # "o" no longer sorts
        await pilot.press("ctrl+o")
        assert model.sort.name == "oldest"
        first = app.execution_list.selected_key
        await pilot.press("n")
        await settle(pilot)
        assert app.execution_list.selected_key != first
        await pilot.press("question_mark")
        text = str(app.screen.query_one("#help-body").render())
        sort_line = next(line for line in text.splitlines() if line.endswith("cycle-sort"))
        assert sort_line.split()[0] == "^o"


async def test_a_keymap_mistake_is_said_and_leaves_no_action_without_a_key(
    records_dir: Path,
) -> None:
    """Three mistakes in keymap.toml went unsaid: an id no binding has, a key no terminal
    sends (replay then had no key at all: "r" did nothing) and quit given the list's "j"."""
    write_world(records_dir)
    keymap = {"quit": "j", "nosuchid": "x", "cycle-sort": "ctrl+shift+nonsense!!"}
    app = make_app(records_dir, keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        [note] = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert note.startswith("keymap ") and "keymap.toml: " in note
        assert "no binding has the id 'nosuchid'" in note
        assert "'ctrl+shift+nonsense!!': no key is called 'nonsense!!' (cycle-sort)" in note
        assert "'j' is both 'Down' and 'Quit'" in note
        model = app.execution_list.model
        await pilot.press("o")  # its own key, the bad one dropped
        await settle(pilot)
        assert model.sort.name == "oldest"
        assert app.is_running


async def test_invalidate_asks_then_rewrites_the_record_and_its_row(layout: Path) -> None:
    ids = write_world(layout)
    app = make_app(layout)  # not watching: the app re-reads its own write
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        key = f"{ids['ok']}.json"
        app.execution_list.select_key(key)
        await settle(pilot)
        before = (layout / key).read_bytes()
        await pilot.press("I")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # cancelled: nothing written
        await settle(pilot)
        assert (layout / key).read_bytes() == before
        await pilot.press("I", "y")
        model = app.execution_list.model
        await wait_for(pilot, lambda: not model.summaries[key].replayable, "row re-read")
        header = json.loads((layout / key).read_text())["header"]
        assert header["replayable"] is False
        assert header["replayableReason"] == "manually_invalidated"
        assert model.summaries[key].replay_reason == "manually_invalidated"
        await wait_for(
            pilot, lambda: app.detail is not None and not app.detail.replayable, "detail"
        )
        assert app.execution_list.selected_key == key


async def test_invalidate_of_a_damaged_file_says_why_without_asking(layout: Path) -> None:
    """The dialog said the file could not be invalidated and still offered to confirm."""
    ids = write_world(layout)
    app = make_app(layout)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        key = f"{ids['truncated']}.json"
        app.execution_list.select_key(key)
        await settle(pilot)
        before = (layout / key).read_bytes()
        await pilot.press("I")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert [n.message for n in app._notifications] == [
            "Not invalidated: this file is damaged, and rewriting it would drop everything "
            "after the damage"
        ]
        assert (layout / key).read_bytes() == before


async def test_save_snapshot_writes_beside_the_records_never_among_them(layout: Path) -> None:
    ids = write_world(layout)
    app = make_app(layout)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{ids['fallback']}.json")
        await settle(pilot)
        names_before = sorted(os.listdir(layout))
        await pilot.press("s")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        snapshots = layout.parent / "snapshots"

        # Written whole, then renamed into place: the hidden temp file is not the snapshot.
        def saved_one() -> bool:
            return snapshots.is_dir() and any(
                not p.name.startswith(".") for p in snapshots.iterdir()
            )

        await wait_for(pilot, saved_one, "saved")
        (saved,) = snapshots.iterdir()
        assert saved.name.startswith(ids["fallback"])
        document = json.loads(saved.read_text())
        assert document["workflowId"] == "Translate"
        assert sorted(os.listdir(layout)) == names_before


async def test_the_dialogs_name_a_copy_by_its_file(tmp_path: Path, real_world: RealWorld) -> None:
    """Two files hold one id (a copy kept beside a real 1.3.0 record): the Invalidate,
    Snapshot and Force replay dialogs named the execution by its id only, which does not
    say which of the two they act on. They name the file as the Replay tab does, and
    Invalidate says the other file stays as it is (and its toast names the file); a record
    whose id no other file holds is named by its id alone."""
    records = tmp_path / ".intentusnet" / "records"
    copy = with_a_copy(real_world, records)
    app = make_app(records)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        async def dialog(key: str, press: str) -> str:
            assert app.execution_list.select_key(key)
            await wait_for(pilot, lambda: app.detail_key == key, "detail loaded")
            await pilot.press(press)
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            text = app.screen.body_text
            await pilot.press("n")
            await settle(pilot)
            return text

        for key in (copy, f"{real_world.success}.json"):
            other = f"{real_world.success}.json" if key == copy else copy
            said = {press: await dialog(key, press) for press in ("I", "s", "R")}
            for press, text in said.items():
                assert f"Execution: {real_world.success}\n" in text, (press, text)
                assert f"File: {key}\n" in text or f"/{key}\n" in text, (press, text)
                assert other not in text
            assert "Copy: another file holds this id too, and stays as it is" in said["I"]
        alone = f"{real_world.fallback}.json"
        for press in ("I", "s", "R"):
            text = await dialog(alone, press)
            assert f"Execution: {real_world.fallback}\n" in text
            assert f"File: {alone}" not in text and "Copy:" not in text
        assert app.execution_list.select_key(copy)
        await wait_for(pilot, lambda: app.detail_key == copy, "detail loaded")
        await pilot.press("I", "y")
        model = app.execution_list.model
        await wait_for(pilot, lambda: not model.summaries[copy].replayable, "row re-read")
        assert [str(n.message) for n in app._notifications][-1] == f"Invalidated {copy}"
        assert model.summaries[f"{real_world.success}.json"].replayable  # the other stays


async def test_replay_mark_and_diff_drive_the_side_pane(records_dir: Path) -> None:
    ids = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.check_action("diff", ()) is None  # nothing marked: dimmed
        assert app.check_action("next_difference", ()) is False  # no diff: hidden
        await pilot.press("r")
        await settle(pilot)
        assert app.side_pane.active_tab == "replay"
        await pilot.press("m")
        app.execution_list.select_key(f"{ids['fallback']}.json")
        await settle(pilot)
        assert app.check_action("diff", ()) is True
        await pilot.press("d")
        await settle(pilot)
        # d opens the full-screen comparison; escape comes back to the compact Diff tab.
        from intentus_tui.tui.screens.compare import ComparisonScreen

        assert isinstance(app.screen, ComparisonScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, ComparisonScreen)
        assert app.side_pane.active_tab == "diff"
        assert app.check_action("next_difference", ()) is True
        await pilot.press("n", "N")
        await settle(pilot)
        await pilot.press("R")  # force replay asks first
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await pilot.press("4")
        assert app.side_pane.active_tab == "postmortem"


async def test_nothing_to_act_on_dims_the_record_actions(records_dir: Path) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for action in ("replay", "force_replay", "invalidate", "save_snapshot", "mark"):
            assert app.check_action(action, ()) is None
        await pilot.press("r", "R", "I", "s", "m", "d")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)


async def test_wal_only_execution_shows_the_log_as_its_timeline(tmp_path: Path) -> None:
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=20)
        model = app.execution_list.model
        wal_keys = [k for k, s in model.summaries.items() if s.source == "wal"]
        assert wal_keys, "the demo world has an execution known only from its WAL"
        assert app.execution_list.select_key(wal_keys[0])
        await settle(pilot)
        assert "no record file" in timeline_summary(app)
        assert "never ended" in timeline_summary(app)
        # the full type, or its short name when the waterfall takes the room
        started = ("step.started", "step start")
        assert any(
            any(s in line for s in started) and "in flight" in line for line in event_lines(app)
        )
        body = str(app.event_detail.query_one("#event-detail-body").render())
        assert '"entry_type": "step.started"' in body
        assert app.check_action("replay", ()) is True  # live: it says there is no record
        await pilot.press("1")  # Verify: no record is not a record's problem
        await settle(pilot)
        verify = " ".join(app.side_pane.verify_pane.text.split())
        assert "VERIFIED" in verify and "NO RECORD only its write-ahead log" in verify, verify
        assert "PROBLEM" not in verify
        assert "(in flight)" in verify and "in_flight" not in verify  # words, not codes


async def test_a_wal_only_execution_has_nothing_to_replay_and_R_says_so(tmp_path: Path) -> None:
    # The Replay tab once offered "a forced replay ... after a confirmation", and R did
    # nothing at all: there is no record, so nothing to replay, forced or not.
    manifest = build_demo_world(tmp_path)
    app = make_app(manifest.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, timeout=20)
        model = app.execution_list.model
        wal_key = next(k for k, s in model.summaries.items() if s.source == "wal")
        assert app.execution_list.select_key(wal_key)
        await settle(pilot)
        await pilot.press("2")  # the Replay tab
        await settle(pilot)
        waiting = " ".join(app.side_pane.replay_pane.text.split())
        assert "Nothing to replay" in waiting, waiting
        assert "A forced replay is possible" not in waiting
        # Named by its id, as its row names it: not by its log's file name.
        execution_id = model.summaries[wal_key].execution_id
        assert f"Execution {execution_id} " in waiting and ".wal" not in waiting, waiting
        await pilot.press("R")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert any(
            note.startswith("Nothing to replay: no record file was written") for note in notes
        ), notes
        assert any("A forced replay has nothing to return either." in n for n in notes)
        # r, I, s and m say so too (each did nothing, saying nothing); nothing is written.
        for key in ("r", "I", "s", "m"):
            app.clear_notifications()
            await pilot.press(key)
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
            verb = {"r": "replay", "I": "invalidate", "s": "save a snapshot of"}.get(
                key, "mark for a diff"
            )
            assert any(
                note.startswith(f"Nothing to {verb}: ") and "has no record (" in note
                for note in notes
            ), (key, notes)
        # d with another execution marked: nothing to compare it with, as m and the
        # command line's diff say (it compared an empty record, called "damaged").
        from intentus_tui.tui.screens.compare import ComparisonScreen

        record_key = next(k for k, s in model.summaries.items() if s.source != "wal")
        assert app.execution_list.select_key(record_key)
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert app.marked is not None
        assert app.execution_list.select_key(wal_key)
        await settle(pilot)
        app.clear_notifications()
        await pilot.press("d")
        await settle(pilot)
        assert not isinstance(app.screen, ComparisonScreen)
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert any(
            note.startswith("Nothing to compare with the marked execution: ")
            and "has no record (" in note
            for note in notes
        ), notes


async def test_help_on_the_comparison_screen_lists_its_keys_first(records_dir: Path) -> None:
    """``?`` on the full-screen comparison listed the list's, the timeline's and every other
    key first: the comparison's own, the ones that work there, came fourth. They come
    first there, then the others as on the main screen (which is unchanged)."""
    names = write_world(records_dir)
    app = make_app(records_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        main = str(app.screen.query_one("#help-body").render())
        await pilot.press("escape")
        await mark_and_compare(pilot, f"{names['ok']}.json", f"{names['fallback']}.json")
        assert isinstance(app.screen, ComparisonScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-body").render())
    first = text.index("Comparison (d, D")
    assert first < text.index("Everywhere") < text.index("Execution list"), text[:400]
    assert main.index("Everywhere") < main.index("Execution list") < main.index("Comparison")
