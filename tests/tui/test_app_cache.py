"""The debugger's index with its cache on: what one odd file must not break."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from intentus_tui.core.index.cache import CACHE_ENV
from intentus_tui.tui.startup.tuning import prepare_pool
from tests.core.index.test_cache import spy_on_the_pool
from tests.factories import make_record, write_record
from tests.tui.app_support import SIZE, list_lines, make_app, wait_for_scan_and_side_pane

AFTER_2262 = 10**19  # ns: 2286-11-20, as `touch -d @10000000000` sets it


@pytest.mark.parametrize("pooled", [False, True], ids=["in the app", "in the process pool"])
async def test_a_file_dated_after_2262_is_listed_cold_and_warm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pooled: bool
) -> None:
    records = tmp_path / "records"
    for name in ("a-1", "b-2", "c-3"):
        write_record(records, make_record(execution_id=name))
    os.utime(write_record(records, make_record(execution_id="late-1")), ns=(AFTER_2262,) * 2)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    if pooled:  # the scan runs in a thread: the pool's workers come from the forkserver
        pool_runs = spy_on_the_pool(monkeypatch)
        prepare_pool()
    for _ in ("cold: fills the cache", "warm: from the cache"):
        app = make_app(records, use_cache=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_scan_and_side_pane(pilot, app)
            keys = sorted(app.execution_list.model.summaries)
            assert keys == ["a-1.json", "b-2.json", "c-3.json", "late-1.json"]
            assert any("late-1" in line for line in list_lines(app))
        assert any((tmp_path / "cache").iterdir())
    if pooled:
        assert pool_runs == [(2, 4)]  # the cold scan: two workers, a chunk per file


async def test_the_cache_the_debugger_fills_serves_the_json_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The debugger stores summaries only (no listing rows: it never shows them). The
    command line's JSON listing after it is the one a no-cache listing prints, and from
    then on comes straight from the cache."""
    from click.testing import CliRunner

    from intentus_tui.cli import main
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.paths import resolve_root
    from intentus_tui.render.rows import LISTING_ROWS

    records = tmp_path / "records"
    for n in range(5):
        write_record(records, make_record(execution_id=f"exec-{n}"))
    (records / "cut-1.json").write_bytes(b'{"header": {"executionId": "cut-1"')
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    app = make_app(records, use_cache=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_scan_and_side_pane(pilot, app)
    root = resolve_root(records)
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is None  # no rows yet

    def listing(*extra: str) -> bytes:
        result = CliRunner().invoke(main, ["inspect", "--list", "--json", str(records), *extra])
        assert result.exit_code == 0, result.output
        return result.stdout_bytes

    no_cache = listing("--no-cache")
    assert b'"cut-1"' in no_cache
    assert listing() == no_cache  # rows made once, from the debugger's summaries
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is not None
    assert listing() == no_cache


async def test_the_list_is_complete_while_the_cache_is_still_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing the cache's snapshot (a third of a second at 100,000 records) is not
    indexing: the header says the index is complete once every row is listed."""
    import threading

    from intentus_tui.core.index.cache import IndexCache
    from tests.tui.app_support import screen_text, wait_for

    records = tmp_path / "records"
    for n in range(4):
        write_record(records, make_record(execution_id=f"exec-{n}"))
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    writing, release = threading.Event(), threading.Event()
    real_store = IndexCache.store

    def store(self: IndexCache, *args: object, **kwargs: object) -> None:
        writing.set()
        assert release.wait(15), "the test never let the cache be written"
        real_store(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(IndexCache, "store", store)
    app = make_app(records, use_cache=True)
    async with app.run_test(size=SIZE) as pilot:
        try:
            await wait_for(pilot, writing.is_set, "the cache write to start")
            await wait_for(pilot, lambda: app.scan_done, "the list to be complete")
            assert len(app.execution_list.model.summaries) == 4
            assert "indexing" not in screen_text(app)
            assert not any((tmp_path / "cache").glob("*summaries*"))  # not written yet
        finally:
            release.set()
        await wait_for_scan_and_side_pane(pilot, app)
    assert any((tmp_path / "cache").glob("*summaries*"))
