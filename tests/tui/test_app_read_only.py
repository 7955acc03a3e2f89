"""A bundle opened in the debugger is read-only: its header says so, and the writing
actions (invalidate, save a snapshot) are refused with one line, from a key or the
command palette, leaving every file as it was."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.bundle.read import ExtractedBundle, extract_bundle
from intentus_tui.core.bundle.write import bundle_executions
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.read_only import mark_read_only
from intentus_tui.tui import app as app_module
from intentus_tui.tui.app import IntentusApp
from intentus_tui.tui.screens.confirm import ConfirmScreen
from intentus_tui.tui.widgets.footer import AppFooter
from tests.core.bundle.support import BundleWorld, build_bundle_world, repack
from tests.intentusnet_world import RealWorld
from tests.tui.app_support import SIZE, screen_text, settle, wait_for

REASON = "a bundle (evidence.tar.gz), opened read-only"


class NotingApp(IntentusApp):
    """The real app, keeping every notification (``run_test`` hides them)."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes: list[str] = []

    def notify(self, message: Any, *args: Any, **kwargs: Any) -> None:
        self.notes.append(str(message))
        super().notify(message, *args, **kwargs)


@pytest.fixture
def opened(real_world: RealWorld, tmp_path: Path) -> tuple[BundleWorld, Path]:
    """A bundle of real executions, extracted as the debugger opens one: (world, copy)."""
    world = build_bundle_world(real_world, tmp_path / "incident")
    output = tmp_path / "evidence.tar.gz"
    bundle_executions(resolve_root(world.base), [world.success, world.fallback], output)
    copy = tmp_path / "copy"
    copy.mkdir()
    extract_bundle(output, copy)
    return world, copy


def _app(copy: Path) -> NotingApp:
    mark_read_only(copy, REASON)  # as opening a bundle does
    root = resolve_root(copy)
    return NotingApp(root, watch=False, directory_label="bundle evidence.tar.gz", use_cache=False)


def _files(directory: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


async def test_writes_are_refused_on_a_bundle(opened: tuple[BundleWorld, Path]) -> None:
    world, copy = opened
    app = _app(copy)  # marks the copy read-only, as opening a bundle does
    before = _files(copy)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{world.success}.json")
        await settle(pilot)
        await wait_for(pilot, lambda: app.detail is not None, "the detail")
        header = screen_text(app).splitlines()[0]
        assert "bundle evidence.tar.gz" in header and "read-only" in header

        await pilot.press("I")
        assert not isinstance(app.screen, ConfirmScreen)  # refused before asking
        await pilot.press("s")
        assert not isinstance(app.screen, ConfirmScreen)
        app.action_invalidate()  # as the command palette calls it
        await settle(pilot)
        assert app.notes == [
            f"Invalidate refused: the records are {REASON}.",
            f"Save snapshot refused: the records are {REASON}.",
            f"Invalidate refused: the records are {REASON}.",
        ]
    assert _files(copy) == before
    assert sorted(os.listdir(copy)) == [".intentus-read-only", "records", "snapshots", "wal"]


async def test_a_writable_root_is_not_marked_read_only(opened: tuple[BundleWorld, Path]) -> None:
    world, _copy = opened
    app = NotingApp(resolve_root(world.base), watch=False, directory_label="x", use_cache=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.execution_list.select_key(f"{world.success}.json")
        # The selected execution read (the first row's was already there: on a busy
        # machine "I" then waited for this one, and the question came after the assert).
        await settle(pilot)
        await wait_for(pilot, lambda: app.detail is not None, "the detail")
        assert "read-only" not in screen_text(app).splitlines()[0]
        await pilot.press("I")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)  # asks; the user may go on
        await pilot.press("n")


def _bundled(
    world: BundleWorld, ids: list[str], archive: Path, *, tampered: bool = False
) -> tuple[ExtractedBundle, Path]:
    """``ids`` of ``world`` bundled into ``archive`` (then, ``tampered``, the last one's
    record changed in a copy of it, ``tampered.tar.gz``), extracted beside it as
    ``intentus-tui ARCHIVE`` reads it: (the extracted copy, the archive read)."""
    bundle_executions(resolve_root(world.base), ids, archive)
    if tampered:
        archive = repack(
            archive, archive.with_name("tampered.tar.gz"), f"records/{ids[-1]}.json", 40
        )
    copy = archive.parent / archive.name.removesuffix(".tar.gz")
    copy.mkdir()
    return extract_bundle(archive, copy), archive


@pytest.mark.parametrize("width", [80, 200])
async def test_a_tampered_bundle_is_named_first_then_why(
    opened: tuple[BundleWorld, Path], tmp_path: Path, width: int
) -> None:
    """The header names a bundle whose files differ from its manifest by its name, then the
    cause; too long for the terminal, it is cut at its end (``…``), never its start."""
    from intentus_tui.cli.open import bundle_app, bundle_label

    world, _copy = opened
    ids = [world.success, world.fallback]
    bundle, changed = _bundled(world, ids, tmp_path / "good.tar.gz", tampered=True)
    label = bundle_label(bundle, str(changed))
    assert label == "bundle tampered.tar.gz (1 file differs from its manifest: run verify)"
    app = bundle_app(bundle, str(changed))  # as ``intentus-tui tampered.tar.gz`` makes it
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        header = screen_text(app).splitlines()[0]
    assert header.startswith(" intentus-tui ▸ bundle tampered.tar.gz (1 file diff")
    assert header.rstrip().endswith("○ not watching  read-only")
    if width == 80:
        assert "(1 file diffe…  ○" in header
    else:
        assert f"▸ {label}  ○ not watching" in header


async def test_a_bundle_offers_no_live_pause_it_could_not_do(
    opened: tuple[BundleWorld, Path], tmp_path: Path
) -> None:
    """A bundle is never watched: its footer offered ``p Live/pause``, which said only
    "Not watching this directory", and so did the palette's "Toggle live / paused"."""
    from intentus_tui.cli.open import bundle_app
    from tests.tui.test_app_injection import _hit_count

    world, _copy = opened
    bundle, made = _bundled(world, [world.success, world.fallback], tmp_path / "made.tar.gz")
    app = bundle_app(bundle, str(made))  # as ``intentus-tui made.tar.gz``
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.detail is not None, "the detail")
        await settle(pilot)
        keys = [(key.key_display, key.description) for key in app.query_one(AppFooter).keys]
        assert ("r", "Replay") in keys and not any(key == "p" for key, _ in keys), keys
        assert "Live/pause" not in screen_text(app)
        await pilot.press("ctrl+p", *"toggle")
        await settle(pilot)
        assert _hit_count(app) == 0 and "Toggle live" not in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        notes: list[str] = []
        app.notify = lambda message, *_a, **_k: notes.append(str(message))  # type: ignore[method-assign]
        await pilot.press("p")  # hidden, it still says why it does nothing
        await settle(pilot)
        assert notes == ["Nothing to pause or resume: this is not watched, nothing new arrives"]


async def test_a_bundle_offers_no_follow_it_could_not_do(
    opened: tuple[BundleWorld, Path], tmp_path: Path
) -> None:
    """``T`` on a bundle (never watched, nothing arrives) turned following on: at 80
    columns the header's "⇣ follow" cut its warning to "bundle tampered.tar.gz (1…", and
    the palette offered "Follow newest". It is offered nowhere; pressed, it says why it
    does nothing, the header as it was."""
    from intentus_tui.cli.open import bundle_app
    from tests.tui.test_app_injection import _hit_count

    world, _copy = opened
    ids = [world.success, world.fallback]
    bundle, changed = _bundled(world, ids, tmp_path / "good.tar.gz", tampered=True)
    app = bundle_app(bundle, str(changed))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.detail is not None, "the detail")
        await settle(pilot)
        header = screen_text(app).splitlines()[0]
        assert "(1 file diffe…  ○ not watching  read-only" in header
        await pilot.press("ctrl+p", *"follow")
        await settle(pilot)
        assert _hit_count(app) == 0 and "Follow newest" not in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        notes: list[str] = []

        def noted(message: object, *_a: object, **_k: object) -> None:
            notes.append(str(message))

        app.notify = noted  # type: ignore[method-assign,assignment]
        await pilot.press("T")
        await settle(pilot)
        assert notes == ["Nothing to follow: this is not watched, nothing new arrives"]
        assert not app.execution_list.following
        assert screen_text(app).splitlines()[0] == header  # no "⇣ follow", nothing cut


async def test_a_bundle_among_other_roots_is_read_only_and_gone_after(
    opened: tuple[BundleWorld, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``intentus-tui DIR FILE.tar.gz``: the bundle is one root of the merged list, named a
    bundle in the header; its executions refuse the writing actions while the directory's
    still offer them; its private copy is removed when the debugger ends. It was refused
    ("a bundle is opened on its own, not among other roots")."""
    import click

    from intentus_tui.cli.bundle import bundle_among_roots
    from intentus_tui.core.remote.location import RemoteOptions
    from intentus_tui.core.roots import open_roots
    from intentus_tui.tui.roots import RootSet

    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    private = tmp_path / "private"
    private.mkdir()
    monkeypatch.setenv("TMPDIR", str(private))
    monkeypatch.setattr("tempfile.tempdir", None)  # TMPDIR read again
    world, _copy = opened
    bundle = tmp_path / "evidence.tar.gz"
    bundle_executions(resolve_root(world.base), [world.success, world.fallback], bundle)
    with click.Context(click.Command("intentus-tui")):  # what the command line runs in
        opened_roots = open_roots(
            [str(world.base), str(bundle)],
            RemoteOptions(),
            sync=False,
            open_bundle=bundle_among_roots,
        )
        assert [entry.problem for entry in opened_roots] == [None, None]
        roots = RootSet(opened_roots, RemoteOptions())
        first = roots.working[0].root
        assert first is not None
        app = NotingApp(first, roots=roots, watch=False, use_cache=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            header = screen_text(app).splitlines()[0]
            assert "incident 5 · evidence.tar.gz 2 (bundle)" in header, header
            assert "read-only" not in header  # the directory is the operator's own
            app.execution_list.select_key(f"evidence.tar.gz/{world.success}.json")
            await settle(pilot)
            await wait_for(pilot, lambda: app.detail is not None, "the bundle's detail")
            await pilot.press("I")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.notes == [f"Invalidate refused: the records are {REASON}."]
            app.execution_list.select_key(f"incident/{world.success}.json")
            await settle(pilot)
            await wait_for(pilot, lambda: app.detail_key == f"incident/{world.success}.json", "")
            await pilot.press("I")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)  # the directory's own: it asks
            await pilot.press("n")
        assert len(os.listdir(private)) == 1  # the bundle's copy, while the command runs
    assert os.listdir(private) == []


def _help_lines(app: IntentusApp) -> dict[str, str]:
    """The help's binding lines by their id, each with the note under it, if any."""
    from intentus_tui.tui.screens.help import HelpScreen
    from intentus_tui.tui.widgets.hanging_text import HangingText

    assert isinstance(app.screen, HelpScreen)
    body = app.screen.query_one("#help-body").render()
    assert isinstance(body, HangingText)
    text = body.wrapped(200).plain.splitlines()  # one line a binding
    lines: dict[str, str] = {}
    for number, line in enumerate(text):
        words = line.split()
        if not line.startswith("  ") or not words or words[-1] in lines:
            continue
        under = text[number + 1].strip() if number + 1 < len(text) else ""
        note = f" | {under}" if under.startswith("not offered") else ""
        lines[words[-1]] = " ".join(words) + note
    return lines


async def test_the_help_on_a_bundle_says_p_and_T_are_not_offered(
    opened: tuple[BundleWorld, Path], records_dir: Path
) -> None:
    """``?`` on a bundle listed ``p Live/pause`` and ``T Follow newest`` as any key, though
    the footer and the palette leave them out there (nothing is watched). They are listed,
    dimmed, with why under each (the words ``p`` and ``T`` say pressed there); where the
    directory is watched, as before."""
    from intentus_tui.cli.open import bundle_app
    from tests.factories import make_record, write_record
    from tests.tui.app_support import make_app

    world, _copy = opened
    bundle, made = _bundled(world, [world.success], world.base.parent / "made.tar.gz")
    app = bundle_app(bundle, str(made))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        lines = _help_lines(app)
    why = "not offered: this is not watched, nothing new arrives"
    assert lines["toggle-live"] == f"p Live/pause toggle-live | {why}"
    assert lines["follow"] == f"T Follow newest follow | {why}"
    assert lines["replay"] == "r Replay replay" and lines["cycle-sort"] == "o Sort cycle-sort"

    write_record(records_dir, make_record())
    watched = make_app(records_dir, watch=True)
    async with watched.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        lines = _help_lines(watched)
    assert lines["toggle-live"] == "p Live/pause toggle-live"
    assert lines["follow"] == "T Follow newest follow"
