"""The debugger on several roots: one list with a root column, counts per root and a
failed root in the header, each row's detail read from its own root, and a diff of two
executions from two roots. Records written by the real intentusnet 1.3.0."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.content import Content
from textual.widgets import Static

from intentus_tui.core.remote.location import RemoteOptions
from intentus_tui.core.roots import open_roots
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.roots import RootSet
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host


async def _scanned(app: IntentusApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        await pilot.pause(0.05)
        if app.scan_done:
            break
    await pilot.pause(0.2)


def _roots_app(*specs: str) -> IntentusApp:
    """The debugger on these roots, as ``intentus-tui SPEC SPEC …`` opens them (unwatched)."""
    roots = RootSet(open_roots(list(specs), RemoteOptions()), RemoteOptions())
    first = roots.working[0].root
    assert first is not None
    return IntentusApp(first, roots=roots, watch=False, use_cache=False)


async def test_merged_list_header_detail_and_cross_root_diff(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    alpha = copy_host(real_world, tmp_path / "alpha")
    beta = copy_host(real_world, tmp_path / "beta")
    path = beta.records / f"{real_world.success}.json"
    record = json.loads(path.read_text())
    record["envelope"]["metadata"]["createdAt"] = "2030-01-01T00:00:00Z"
    path.write_text(json.dumps(record, indent=2))
    specs = [str(alpha.base), str(beta.base), str(tmp_path / "gone")]
    app = _roots_app(*specs)
    async with app.run_test(size=(160, 40)) as pilot:
        await _scanned(app, pilot)
        per_root = len(alpha.ids) + 1
        assert app.header_state.directory == (
            f"alpha {per_root} · beta {per_root} · gone FAILED: no such directory: "
            f"{tmp_path / 'gone'}"
        )
        summaries = app.execution_list.model.summaries
        assert len(summaries) == 2 * per_root
        assert {s.root for s in summaries.values()} == {"alpha", "beta"}
        # each side's detail comes from its own root; m marks one, d compares
        listing = app.execution_list
        for label in ("alpha", "beta"):
            listing.select_key(f"{label}/{real_world.success}.json")
            for _ in range(40):
                await pilot.pause(0.05)
                if app.detail is not None and app.detail_key == listing.selected_key:
                    break
            assert app.detail is not None
            root = alpha if label == "alpha" else beta
            assert app.detail.path == root.records / f"{real_world.success}.json"
            if label == "alpha":
                await pilot.press("m")
        await pilot.press("d")
        await pilot.pause(0.5)
        assert app.diff_shown
        assert app.marked is not None and app.marked.path.parent == alpha.records


async def _select(app: IntentusApp, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    assert app.execution_list.select_key(key)
    for _ in range(40):
        await pilot.pause(0.05)
        if app.detail is not None and app.detail_key == key:
            return
    raise AssertionError(f"{key} did not load")


async def _picker_from(app: IntentusApp, pilot, key: str):  # type: ignore[no-untyped-def]
    """``D`` pressed on the execution in ``key``: its picker, every candidate listed."""
    from intentus_tui.tui.screens.compare_picker import ComparePicker
    from tests.tui.app_support import settle

    await _scanned(app, pilot)
    await _select(app, pilot, key)
    await pilot.press("D")
    picker = app.screen
    assert isinstance(picker, ComparePicker)
    await settle(pilot)
    assert picker.index is not None and picker.complete
    return picker


def _alpha_and_beta(
    real_world: RealWorld, tmp_path: Path, edit: Callable[[dict[str, Any]], object]
) -> tuple[IntentusApp, Path]:
    """The app on two copies of the real world, roots ``alpha`` and ``beta``, beta's copy
    of the success changed by ``edit``; and that record's path."""
    alpha = copy_host(real_world, tmp_path / "alpha")
    beta = copy_host(real_world, tmp_path / "beta")
    record_path = beta.records / f"{real_world.success}.json"
    record = json.loads(record_path.read_text())
    edit(record)
    record_path.write_text(json.dumps(record, indent=2))
    return _roots_app(str(alpha.base), str(beta.base)), record_path


async def test_D_picks_an_execution_of_another_root_and_names_each_root(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picker lists each execution with its root (the same id in two roots is two
    lines), and the one picked is read from its own root, not the first one."""
    from tests.tui.app_support import settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    # beta's copy of the success differs, so that a comparison with the wrong file shows
    app, record_path = _alpha_and_beta(
        real_world,
        tmp_path,
        lambda r: r["envelope"]["metadata"].update(createdAt="2030-01-01T00:00:00Z"),
    )
    async with app.run_test(size=(160, 40)) as pilot:
        picker = await _picker_from(app, pilot, f"alpha/{real_world.fallback}.json")
        lines = [c.line for c in picker.index.candidates if c.kind == "execution"]
        short = real_world.success[:8]
        # both copies of the success, each with its root
        assert sum(short in line for line in lines) == 2
        assert any("alpha" in line and short in line for line in lines)
        assert any("beta" in line and short in line for line in lines)
        await pilot.press(*f"beta{short}")
        await pilot.pause()
        chosen = picker.highlighted
        assert chosen is not None and chosen.key == f"beta/{real_world.success}.json"
        await pilot.press("enter")
        await settle(pilot)
        outcome = app.side_pane.diff_pane.outcome
        assert outcome is not None and outcome.error is None
        right = outcome.request.right
        assert right is not None and right.path == record_path
        assert outcome.request.right_label == f"beta:{real_world.success}"
        assert outcome.request.left_label == f"alpha:{real_world.fallback}"


async def test_d_across_roots_at_80x24_names_each_side_by_root_id_and_verdict(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same execution in two roots, ``m`` on one and ``d`` on the other: the full
    screen's header names each side's root, short id and verdict in 80 columns (no file
    name: the roots tell them apart), and the Diff tab names the roots too."""
    from intentus_tui.tui.screens.compare import ComparisonScreen
    from tests.tui.app_support import settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    app, _ = _alpha_and_beta(  # beta's copy of the success is tampered
        real_world, tmp_path, lambda r: r["envelope"]["payload"].update(text="edited after hashing")
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await _scanned(app, pilot)
        await _select(app, pilot, f"alpha/{real_world.success}.json")
        await pilot.press("m")
        await _select(app, pilot, f"beta/{real_world.success}.json")
        await pilot.press("d")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        short = real_world.success[:8]
        side_a = " ".join(str(screen.query_one("#side-a").render()).split())
        side_b = " ".join(str(screen.query_one("#side-b").render()).split())
        # One above the other, each the whole width: every word, "execution" too.
        assert side_a == f"A execution alpha:{short} · ✓ succeeded · verified · ↺ yes"
        assert side_b == f"B execution beta:{short} · ⚠ untrusted · tampered · ✗ no (untrusted)"
        # what is drawn: each title whole, on its one line
        for side in (screen.query_one("#side-a", Static), screen.query_one("#side-b", Static)):
            content = side.render()
            assert isinstance(content, Content)
            assert len(content.wrap(side.content_size.width)) == 1
        await pilot.press("escape")
        await settle(pilot)
        outcome = app.side_pane.diff_pane.outcome
        assert outcome is not None
        assert outcome.request.left_label == f"alpha:{real_world.success}"
        assert outcome.request.right_label == f"beta:{real_world.success}"


async def test_D_finds_snapshots_and_baselines_under_every_root_named_by_root(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot saved in each root and a baseline in beta's project: the picker lists all
    three (it looked under the first root only), each line with its root, and the one
    picked is named ``ROOT:FILE`` as side B, as an execution is ``ROOT:ID``."""
    from intentus_tui.core.actions import load_detail, save_snapshot
    from intentus_tui.core.compare.targets import snapshot_directory
    from intentus_tui.core.verist.baselines import baseline_path
    from intentus_tui.core.verist.snapshot import save_snapshot as write_snapshot
    from intentus_tui.core.verist.snapshot import snapshot_from_record
    from tests.tui.app_support import settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    app, record_path = _alpha_and_beta(real_world, tmp_path, lambda r: None)
    assert app.roots is not None
    saved: dict[str, Path] = {}
    for entry in app.roots.working:
        assert entry.root is not None
        record = entry.root.records_dir / f"{real_world.fallback}.json"
        saved[entry.label] = save_snapshot(load_detail(record), snapshot_directory(entry.root))
    beta_base = record_path.parent.parent.parent
    snapshot = snapshot_from_record(json.loads(record_path.read_text()))
    pinned = write_snapshot(
        snapshot, baseline_path(beta_base, snapshot, "inputs/pin.json"), metadata={"label": "pin"}
    )
    async with app.run_test(size=(160, 40)) as pilot:
        picker = await _picker_from(app, pilot, f"alpha/{real_world.success}.json")
        files = {c.path: c for c in picker.index.candidates if c.kind != "execution"}
        assert set(files) == {saved["alpha"], saved["beta"], pinned}
        assert files[saved["alpha"]].line.split()[:2] == ["snapshot", "alpha"]
        assert files[saved["beta"]].line.split()[:2] == ["snapshot", "beta"]
        assert files[pinned].line.split()[:2] == ["baseline", "beta"]
        status = str(picker.query_one("#picker-status").render())
        assert status.startswith("2 snapshots · 1 baseline · "), status
        await pilot.press(*"snapshot beta")
        await pilot.pause()
        chosen = picker.highlighted
        assert chosen is not None and chosen.path == saved["beta"]
        await pilot.press("enter")
        await settle(pilot)
        outcome = app.side_pane.diff_pane.outcome
        assert outcome is not None and outcome.error is None
        assert outcome.request.right_label == f"beta:{saved['beta'].name}"


async def test_copies_in_one_root_are_told_apart_at_80x24_beside_the_root_column(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two roots, beta holding a truncated copy ``ID.trunc.json`` and a ``copy.json`` of the
    success: at 80x24 the root column leaves the id column a few cells, and a copy's name
    cut there kept only ``.json`` of its end (``41….json`` for the record and its truncated
    copy alike). Each of beta's rows now reads differently, its verdict marks whole."""
    from tests.tui.app_support import list_lines, settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    app, record_path = _alpha_and_beta(real_world, tmp_path, lambda r: None)
    whole = record_path.read_bytes()
    (record_path.parent / f"{real_world.success}.trunc.json").write_bytes(whole[: len(whole) // 2])
    (record_path.parent / "copy.json").write_bytes(whole)
    async with app.run_test(size=(80, 24)) as pilot:
        await _scanned(app, pilot)
        await settle(pilot)
        rows = [line for line in list_lines(app) if line.startswith(" beta ")]
    labels = [row.split()[1] for row in rows]
    copies = [label for label in labels if label.endswith(".json")]
    assert len(copies) == 3 and "copy.json" in copies, labels  # the record and two copies
    assert len(set(labels)) == len(labels), labels
    assert any(label.endswith("trunc.json") for label in copies), labels
    for row in rows:  # the verdict's three marks, whole, after the id
        marks = row.split()[2:5]
        assert marks[0] in "✓✗◌?⚠" and marks[1].startswith("#") and marks[2] in "↺✗", row


@pytest.mark.parametrize("several", [True, False])
async def test_the_diff_tab_and_border_name_copies_by_their_files(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, several: bool
) -> None:
    """``m`` on ``copy.json``, ``d`` on the truncated copy, then the cursor on the record
    itself: all three hold one id, and the border read ``4130944f vs 4130944f``, the tab
    ``Kept from before: not of the selected 4130944f``. Each is named by its file, as its
    list row names it (with one root or two)."""
    from tests.tui.app_support import make_app, mark_and_compare, screen_text, settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    if several:
        app, record_path = _alpha_and_beta(real_world, tmp_path, lambda r: None)
        prefix, root = "beta/", "beta:"
    else:
        record_path = copy_host(real_world, tmp_path / "one").records / f"{real_world.success}.json"
        app, prefix, root = make_app(record_path.parent), "", ""
    whole = record_path.read_bytes()
    trunc = f"{real_world.success}.trunc.json"
    (record_path.parent / trunc).write_bytes(whole[: len(whole) // 2])
    (record_path.parent / "copy.json").write_bytes(whole)
    async with app.run_test(size=(80, 24)) as pilot:
        await _scanned(app, pilot)
        await mark_and_compare(pilot, f"{prefix}copy.json", f"{prefix}{trunc}")
        await pilot.press("escape")
        await _select(app, pilot, f"{prefix}{record_path.name}")
        await pilot.press("3")
        await settle(pilot)
        border = str(app.side_pane.border_title)
        request = app.side_pane.diff_pane.request
        shown = screen_text(app)
        text = str(app.side_pane.diff_pane.query_one("#diff-title", Static).render())
    short = real_world.success[:8]
    whole_end = record_path.name[-(16 - 6) :]  # "2fbcb…a6a83.json": the end, cut as its row
    assert border == f"copy.json vs {short[:5]}…trunc.json"
    assert request is not None
    assert (request.left_label, request.right_label) == (f"{root}copy.json", f"{root}{trunc}")
    assert text.startswith(f"Kept from before: not of the selected {root}{short[:5]}…{whole_end}\n")
    a_line, b_line = text.split("\n")[1:3]
    assert a_line == f"A: {root}copy.json"
    # The truncated copy's name is longer than the pane: cut in its middle, its end whole,
    # on one screen row (it wrapped mid-name).
    assert b_line.startswith(f"B: {(root + trunc)[:8]}…") and b_line.endswith(trunc[-20:])
    assert b_line in shown
    assert "copy.json vs" in shown and "A: " in shown  # on screen


async def test_marking_a_copy_names_its_file_in_the_toast_and_the_header(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``m`` on ``copy.json`` said ``Marked 4130944f`` and the header ``marked for diff:
    4130944f``: the id the record and its copy share, which tells neither apart."""
    from tests.tui.app_support import make_app, screen_text, settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    record_path = copy_host(real_world, tmp_path / "one").records / f"{real_world.success}.json"
    (record_path.parent / "copy.json").write_bytes(record_path.read_bytes())
    app = make_app(record_path.parent)
    async with app.run_test(size=(120, 36)) as pilot:
        await _scanned(app, pilot)
        await _select(app, pilot, "copy.json")
        await pilot.press("m")
        await settle(pilot)
        notes = [str(n.message) for n in app._notifications]
        header = screen_text(app).splitlines()[:2]
    assert "Marked copy.json: select another execution and press d" in notes
    assert any("copy.json" in line for line in header), header


async def test_a_long_root_label_gives_way_to_each_rows_verdict_marks_at_80x24(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two roots, one labelled ``incident-payments-eu-west`` (the root column's 12 cells),
    and 13-character ids (``exec-2e05319a``, known from their write-ahead logs): at 80x24 a
    row ran past the list's edge, its replay mark cut off (``incident-pa… 4130944f ✓
    #✓``), and with shorter labels its intent was one letter with no ``…``. The label is
    cut further: every row keeps its three marks and a cut intent inside the list."""
    from tests.core.wal.support import write_completed
    from tests.tui.app_support import list_lines, settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    alpha = copy_host(real_world, tmp_path / "alpha")
    beta = copy_host(real_world, tmp_path / "incident-payments-eu-west")
    for n in range(12):  # enough rows for a scrollbar, which takes the list a cell more
        write_completed(beta.wal, f"exec-2e05319{n:x}")
    app = _roots_app(str(alpha.base), str(beta.base))
    async with app.run_test(size=(80, 24)) as pilot:
        await _scanned(app, pilot)
        await settle(pilot)
        width = app.execution_list.scrollable_content_region.width
        rows = [line.rstrip() for line in list_lines(app) if line.startswith((" alpha", " inc"))]
    assert len(rows) >= 6, rows
    for row in rows:
        assert len(row) <= width, (width, row)
        words = row.split()
        marks = words[2:5]
        assert marks[0] in "✓✗◌?⚠" and marks[1].startswith("#") and marks[2] in "↺✗", row
        assert words[5].endswith("…") or words[5] == "-", row  # the intent, cut, or none
    assert any(row.startswith(" inc") and "…" in row.split()[0] for row in rows), rows


async def test_the_panes_name_the_root_of_the_copy_they_show(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same execution in two roots: its rows say ``alpha`` and ``beta``, but the
    timeline and the side pane named only its id, so neither said which copy they showed
    (the copies may differ: one edited, one tampered). Now their borders name the root."""
    from tests.tui.app_support import settle

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    alpha = copy_host(real_world, tmp_path / "alpha")
    beta = copy_host(real_world, tmp_path / "beta")
    app = _roots_app(str(alpha.base), str(beta.base))
    async with app.run_test(size=(80, 24)) as pilot:
        await _scanned(app, pilot)
        titles = {}
        for label in ("alpha", "beta"):
            await _select(app, pilot, f"{label}/{real_world.success}.json")
            await settle(pilot)
            timeline = str(app.timeline.border_title)
            await pilot.press("w")  # the side pane in the timeline's place (80 columns)
            await settle(pilot)
            titles[label] = (timeline, str(app.side_pane.border_title))
            await pilot.press("w")
    short = real_world.success[:8]
    assert titles == {
        "alpha": ("Timeline · alpha", f"alpha:{short}"),
        "beta": ("Timeline · beta", f"beta:{short}"),
    }
