"""The initial scan as a user lives it: rows show before it ends, keys work meanwhile,
batches go out one at a time, and quitting ends it."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import RecordRoot, resolve_root
from intentus_tui.tui.live import watcher
from intentus_tui.tui.live.messages import IndexChanged, ScanFinished
from intentus_tui.tui.live.watcher import FIRST_POST_MAX, MAX_BATCH, PREVIEW, IndexFeeder
from tests.factories import make_record, write_record
from tests.tui.app_support import (
    SIZE,
    list_lines,
    make_app,
    screen_text,
    wait_for,
    wait_for_scan_and_side_pane,
)
from tests.tui.test_list_model import summary


class GatedIndex:
    """Stands in for the feeder's index: yields the given batches, each only when the test
    releases it (``gate``); records whether the scan was closed."""

    def __init__(self, root: RecordRoot, batches: list[list[ExecutionSummary]]) -> None:
        self.root = root
        self.batches = batches
        self.gate = threading.Semaphore(0)
        self.closed = threading.Event()

    def scan_batches(self, listed: object = None) -> Iterator[list[ExecutionSummary]]:
        try:
            for batch in self.batches:
                assert self.gate.acquire(timeout=20), "the test never released the batch"
                yield batch
        finally:
            self.closed.set()

    def file_count(self) -> int:
        return len(list(self.root.records_dir.glob("*.json")))

    def open(self) -> None:
        """Let every batch still held through. Call it when the test is done: a scan
        thread left waiting at the gate holds up the event loop's close (it joins its
        threads) until the gate's timeout."""
        for _ in self.batches:
            self.gate.release()


class EndlessIndex:
    """A scan that never ends on its own (a huge directory on a slow disk)."""

    def __init__(self, root: RecordRoot) -> None:
        self.root = root
        self.closed = threading.Event()
        self.yielded = threading.Event()

    def file_count(self) -> int:
        return 0

    def scan_batches(self, listed: object = None) -> Iterator[list[ExecutionSummary]]:
        n = 0
        try:
            while True:
                yield [summary(n)]
                self.yielded.set()
                n += 1
                threading.Event().wait(0.001)
        finally:
            self.closed.set()


def _messages_feeder(directory: Path, index: object) -> tuple[IndexFeeder, list[object]]:
    posted: list[object] = []
    root = RecordRoot(directory, None, directory)
    feeder = IndexFeeder(root, posted.append, use_cache=False, preview=False)
    feeder.index = index  # type: ignore[assignment]
    return feeder, posted


def _changed(posted: list[object]) -> list[IndexChanged]:
    return [m for m in posted if isinstance(m, IndexChanged)]


async def test_rows_show_and_keys_work_while_the_scan_is_still_running(
    records_dir: Path, world: dict[str, str]
) -> None:
    everything = DirectoryIndex(resolve_root(records_dir), use_cache=False).scan()
    app = make_app(records_dir)
    index = GatedIndex(app.root, [everything[:3], everything[3:]])
    app.feeder.index = index  # type: ignore[assignment]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.side_pane.ready  # its tabs wait for the first rows
        index.gate.release()  # the first batch only: the scan then waits for the test
        listing = app.execution_list
        await wait_for(pilot, lambda: len(listing.model.summaries) == 3, "the first rows")
        await wait_for(pilot, lambda: listing.selected_key is not None, "a selection")
        await wait_for(pilot, lambda: app.side_pane.ready, "the side pane, after the rows")
        assert not app.scan_done
        assert "indexing" in screen_text(app)  # the progress indicator
        rows = [line for line in list_lines(app) if line.strip() and not line.startswith("──")]
        assert len(rows) == 3
        first = listing.selected_key
        await pilot.press("j")
        await wait_for(pilot, lambda: listing.selected_key != first, "j answered mid-scan")
        assert not app.scan_done and not index.closed.is_set()  # still scanning
        index.gate.release()
        await wait_for_scan_and_side_pane(pilot, app)
        await pilot.pause()
        assert len(listing.model.summaries) == len(everything) == 6
        assert "indexing" not in screen_text(app)
        assert "6 executions" in screen_text(app)


def test_one_batch_in_flight_the_rest_waits_and_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody shows the first batch: the scan keeps reading and sends all the rest in one
    message at the end (after a bounded wait), not one message per index batch."""
    monkeypatch.setattr(watcher, "SHOWN_WAIT_SECONDS", 0.01)
    for n in range(1000):
        (tmp_path / f"{n:05d}.json").write_bytes(b"")
    batches = [[summary(n) for n in range(i, i + 50)] for i in range(0, 1000, 50)]
    index = GatedIndex(RecordRoot(tmp_path, None, tmp_path), batches)
    for _ in batches:
        index.gate.release()
    feeder, posted = _messages_feeder(tmp_path, index)
    assert feeder.claim()
    feeder.scan()
    changed = _changed(posted)
    assert [len(m.changed) for m in changed] == [50, 950]
    assert changed[0].total is None  # the first rows go out before the files are counted
    assert changed[1].total == 1000 and changed[1].scanned == 1000
    keys = [s.key for m in changed for s in m.changed]
    assert keys == [f"{n:05d}.json" for n in range(1000)]  # each row once, in order
    assert isinstance(posted[-1], ScanFinished) and posted[-1].total == 1000


def test_every_row_is_shown_before_the_index_writes_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index yields an empty batch once every file is read, then writes its cache (at
    1,000,000 records, seconds): the rows held back go out at the empty batch."""
    monkeypatch.setattr(watcher, "SHOWN_WAIT_SECONDS", 0.01)
    for n in range(1000):
        (tmp_path / f"{n:05d}.json").write_bytes(b"")
    rows = [summary(n) for n in range(1000)]
    # the last gate stands for the cache write: the test holds it
    index = GatedIndex(RecordRoot(tmp_path, None, tmp_path), [rows[:50], rows[50:], [], []])
    for _ in range(3):
        index.gate.release()
    feeder, posted = _messages_feeder(tmp_path, index)
    assert feeder.claim()
    thread = threading.Thread(target=feeder.scan, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while sum(len(m.changed) for m in _changed(list(posted))) < 1000:
            assert time.monotonic() < deadline, "the rows waited for the cache write"
            threading.Event().wait(0.01)
        assert not any(isinstance(m, ScanFinished) for m in posted)  # still writing
    finally:
        index.gate.release()
        thread.join(timeout=10)
    assert isinstance(posted[-1], ScanFinished) and posted[-1].total == 1000


def test_a_warm_cache_batch_is_cut_so_the_first_rows_show_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watcher, "SHOWN_WAIT_SECONDS", 0.01)
    count = FIRST_POST_MAX + MAX_BATCH + 10
    index = GatedIndex(RecordRoot(tmp_path, None, tmp_path), [[summary(n) for n in range(count)]])
    index.gate.release()
    feeder, posted = _messages_feeder(tmp_path, index)
    feeder.claim()
    feeder.scan()
    assert [len(m.changed) for m in _changed(posted)] == [FIRST_POST_MAX, MAX_BATCH, 10]


def test_shown_batches_let_the_next_one_go(tmp_path: Path) -> None:
    """When the app acknowledges each batch, rows flow in several growing messages."""
    batches = [[summary(n) for n in range(i, i + 50)] for i in range(0, 1000, 50)]
    index = GatedIndex(RecordRoot(tmp_path, None, tmp_path), batches)
    for _ in batches:
        index.gate.release()
    posted: list[object] = []

    def post(message: object) -> None:
        posted.append(message)
        feeder.batch_shown()

    root = RecordRoot(tmp_path, None, tmp_path)
    feeder = IndexFeeder(root, post, use_cache=False, preview=False)
    feeder.index = index  # type: ignore[assignment]
    feeder.claim()
    feeder.scan()
    sizes = [len(m.changed) for m in _changed(posted)]
    assert len(sizes) >= 3 and sizes[0] == 50
    assert sum(sizes) == 1000 and max(sizes) <= MAX_BATCH


def test_stop_ends_a_scan_that_would_go_on(tmp_path: Path) -> None:
    index = EndlessIndex(RecordRoot(tmp_path, None, tmp_path))
    feeder, _posted = _messages_feeder(tmp_path, index)
    feeder.claim()
    thread = threading.Thread(target=feeder.scan, daemon=True)
    thread.start()
    assert index.yielded.wait(10)
    feeder.stop()
    thread.join(timeout=5)
    assert not thread.is_alive(), "the scan did not stop"
    assert index.closed.is_set()  # the index's generator was closed: its cleanup ran


async def test_rows_added_after_the_list_overflows_can_be_scrolled_to(tmp_path: Path) -> None:
    """Batches that only lengthen an already scrolling list update its scroll range
    without a layout pass (``StripCachedView._update_virtual_size``): the last row must
    still be reachable and drawn."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)  # the empty scan
        listing = app.execution_list
        listing.focus()
        app.post_message(IndexChanged(tuple(summary(n) for n in range(100)), scanned=100))
        await pilot.pause()
        overflowing = listing.virtual_size.height
        assert overflowing > listing.scrollable_content_region.height
        app.post_message(IndexChanged(tuple(summary(n) for n in range(100, 300)), scanned=300))
        await pilot.pause()
        assert listing.virtual_size.height == overflowing + 200  # one header + 300 rows
        assert listing.vertical_scrollbar.window_virtual_size == overflowing + 200  # the thumb
        await pilot.press("end")
        await pilot.pause()
        last = listing.model.summary_at(len(listing.model) - 1)
        assert last is not None and listing.selected_key == last.key
        assert listing.max_scroll_y == listing.virtual_size.height - (
            listing.scrollable_content_region.height
        )
        assert round(listing.scroll_y) == listing.max_scroll_y
        assert last.execution_id in list_lines(app)[-1]  # drawn on the bottom line


def test_a_big_directory_shows_a_preview_before_the_index_has_anything(tmp_path: Path) -> None:
    for n in range(PREVIEW + 5):
        write_record(tmp_path, make_record(execution_id=f"exec-{n:04d}"))
    root = resolve_root(tmp_path)
    everything = DirectoryIndex(root, use_cache=False).scan()
    index = GatedIndex(root, [everything])
    posted: list[object] = []
    feeder = IndexFeeder(root, posted.append, use_cache=False)
    feeder.index = index  # type: ignore[assignment]
    feeder.claim()
    thread = threading.Thread(target=feeder.scan, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not posted and time.monotonic() < deadline:
            time.sleep(0.01)
        # the index has not yielded (its gate is closed), yet rows are out
        preview = _changed(posted)[0]
        assert len(preview.changed) == PREVIEW and preview.total is None
        by_key = {s.key: s for s in everything}
        for shown in preview.changed:  # what the index itself says about them
            assert shown == by_key[shown.key]
    finally:
        index.gate.release()
        feeder.batch_shown()
        thread.join(timeout=10)
    keys = {s.key for m in _changed(posted)[1:] for s in m.changed}
    assert len(keys) == PREVIEW + 5  # the index sends every file, the previewed ones again


def test_a_small_directory_gets_no_preview(tmp_path: Path) -> None:
    for n in range(PREVIEW):
        write_record(tmp_path, make_record(execution_id=f"exec-{n:04d}"))
    root = resolve_root(tmp_path)
    index = GatedIndex(root, [DirectoryIndex(root, use_cache=False).scan()])
    index.gate.release()
    posted: list[object] = []
    feeder = IndexFeeder(root, posted.append, use_cache=False)
    feeder.index = index  # type: ignore[assignment]
    feeder.claim()
    feeder.scan()
    assert [len(m.changed) for m in _changed(posted)] == [PREVIEW]  # the index's, once


async def test_the_first_frame_already_shows_a_big_directorys_first_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(PREVIEW + 5):
        write_record(tmp_path, make_record(execution_id=f"exec-{n:04d}"))
    app = make_app(tmp_path)
    everything = DirectoryIndex(app.root, use_cache=False).scan()
    index = GatedIndex(app.root, [everything])
    app.feeder.index = index  # type: ignore[assignment]
    monkeypatch.setenv("LINES", "30")  # a terminal 30 lines high: as many rows are read
    app.prepare_start()  # as the command line does, before the app runs
    async with app.run_test(size=SIZE) as pilot:
        listing = app.execution_list
        # The index has yielded nothing (its gate is closed), yet rows are on screen.
        assert listing.model.shown_count == 30
        assert any("exec-" in line for line in list_lines(app))
        assert not app.scan_done
        index.gate.release()
        await wait_for_scan_and_side_pane(pilot, app)
        await pilot.pause()
        assert listing.model.shown_count == PREVIEW + 5  # each once, the preview updated
        assert f"{PREVIEW + 5} executions" in screen_text(app)


async def test_a_collector_paused_for_the_start_resumes_after_the_first_frame(
    records_dir: Path, world: dict[str, str]
) -> None:
    app = make_app(records_dir)
    gc.unfreeze()  # what the test process froze: the count below is the app's alone
    gc.disable()  # as the command line does for the start
    try:
        app.prepare_start()
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, gc.isenabled, "the collector back on")
            assert gc.get_freeze_count() > 0  # what the start made is never walked again
            await wait_for_scan_and_side_pane(pilot, app)
    finally:
        gc.unfreeze()
        gc.enable()


async def test_a_long_directory_path_leaves_the_counts_and_progress_in_view(
    records_dir: Path, world: dict[str, str]
) -> None:
    label = "/very/long/path/of/records" * 12 + "/the-end"
    app = make_app(records_dir, directory_label=label)
    index = GatedIndex(app.root, [DirectoryIndex(app.root, use_cache=False).scan()])
    app.feeder.index = index  # type: ignore[assignment]
    async with app.run_test(size=SIZE) as pilot:
        top, counts = screen_text(app).splitlines()[:2]
        assert top.rstrip().endswith("listing files…")  # the progress, after the path
        assert "…" in top and "/the-end" in top and len(top.rstrip()) <= SIZE[0]
        index.gate.release()
        await wait_for_scan_and_side_pane(pilot, app)
        await pilot.pause()
        counts = screen_text(app).splitlines()[1]
        assert counts.startswith(" 6 executions")


def test_the_debuggers_scan_leaves_the_collector_on(tmp_path: Path) -> None:
    """The debugger's index leaves the collector alone: the app turns it off for the fill
    and collects now and then itself (``test_a_fill_collects_young_cycles_and_freezes_at_its_end``)."""
    for _ in range(3):
        write_record(tmp_path, make_record())
    feeder = IndexFeeder(resolve_root(tmp_path), lambda message: None, use_cache=False)
    was = gc.isenabled()
    gc.enable()
    try:
        during = [gc.isenabled() for _ in feeder.index.scan_batches()]
    finally:
        if not was:
            gc.disable()
    assert during and all(during)


async def test_a_fill_collects_young_cycles_and_freezes_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the scan fills the list the collector is off (on, it walked the list's
    million rows again and again), yet the cycles the frames make are freed now and then,
    even while no rows come (a stalled scan). At the end what the scan made, which lives
    as long as the app, is frozen (no full collection walks it: at 1,000,000 one took a
    second, a key waited) and the collector is back on."""
    from intentus_tui.tui.startup import tuning

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    monkeypatch.setattr(tuning, "FREEZE_AT_EXECUTIONS", 2)  # a big directory, in small
    monkeypatch.setattr(tuning, "YOUNG_COLLECTION_SECONDS", 0.05)
    for n in range(6):
        write_record(tmp_path, make_record(execution_id=f"exec-{n}"))
    app = make_app(tmp_path)
    everything = DirectoryIndex(app.root, use_cache=False).scan()
    first, rest = everything[:3], everything[3:]
    index = GatedIndex(app.root, [first, rest])
    app.feeder.index = index  # type: ignore[assignment]
    gc.unfreeze()  # what the test process froze: the objects below are the app's
    try:
        assert all(gc.is_tracked(s) for s in first)  # walked by a full collection
        async with app.run_test(size=SIZE) as pilot:
            index.gate.release()
            model = app.execution_list.model
            await wait_for(
                pilot, lambda: all(model.summaries.get(s.key) is s for s in first), "batch 1"
            )
            assert not app.scan_done and not gc.isenabled()
            probe = Cycle()
            gone = weakref.ref(probe)
            del probe
            await wait_for(pilot, lambda: gone() is None, "a young collection, no rows come")
            assert not gc.isenabled()
            index.open()
            await wait_for_scan_and_side_pane(pilot, app)
            await wait_for(pilot, gc.isenabled, "the collector back on")
            tracked = {id(obj) for obj in gc.get_objects()}  # frozen ones are not listed
            assert not any(id(s) in tracked for s in everything)
    finally:
        gc.unfreeze()


async def test_an_app_closed_mid_scan_leaves_the_collector_on(tmp_path: Path) -> None:
    write_record(tmp_path, make_record())
    app = make_app(tmp_path)
    index = EndlessIndex(app.root)  # never done: only the app's end can end it
    app.feeder.index = index  # type: ignore[assignment]
    assert gc.isenabled()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, index.yielded.is_set, "the scan under way")
            assert not gc.isenabled() and not app.scan_done
        assert gc.isenabled()  # the next test, or program, collects as usual
    finally:
        gc.enable()
