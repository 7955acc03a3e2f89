"""Summaries made as a sync copies the files (``core.index.landing``), and the index that
takes them: the same summaries as a scan reading the files, each taken only while its
file is unchanged."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from intentus_tui.core.index.cache import CACHE_ENV
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.index.landing import LANDING_CHUNK, Landing
from intentus_tui.core.index.scan import Built
from intentus_tui.core.index.summarize import summarize_file
from intentus_tui.core.paths import resolve_root
from intentus_tui.render.rows import LISTING_ROWS
from tests.factories import make_record, write_record
from tests.hostile.corpus import build_corpus


def _landed(paths: list[Path]) -> dict[str, Built]:
    landing = Landing(rows=LISTING_ROWS, workers=2)
    for path in paths:
        landing(os.fspath(path))
    return landing.finish()


def test_landing_summarizes_every_file_as_a_scan_would(tmp_path: Path) -> None:
    """Hostile, truncated, huge and ordinary files alike: what the workers made as the
    files landed is what the index makes reading them (chunks full and not)."""
    corpus = build_corpus(tmp_path)
    for i in range(LANDING_CHUNK + 5):
        write_record(corpus.records_dir, make_record(execution_id=f"r{i:04d}"))
    paths = sorted(p for p in corpus.records_dir.iterdir() if p.name.endswith(".json"))
    landed = _landed(paths)
    assert sorted(landed) == [p.name for p in paths]
    for path in paths:
        stamp, summary = summarize_file(os.fspath(path))
        assert landed[path.name][:2] == (stamp, summary)
        assert landed[path.name][2] == LISTING_ROWS.row(summary)


@pytest.mark.parametrize("use_cache", [False, True])
def test_the_index_takes_what_landed_and_reads_only_files_changed_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_cache: bool
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    records = tmp_path / "records"
    records.mkdir()
    for i in range(20):
        write_record(records, make_record(execution_id=f"r{i:04d}"))
    paths = sorted(records.iterdir())
    landed = _landed(paths)
    # Marked, to tell a summary taken from what landed from one read again.
    marked = {
        name: (stamp, dataclasses.replace(summary, intent="LANDED"), row)
        for name, (stamp, summary, row) in landed.items()
    }
    changed = records / "r0003.json"  # rewritten after it landed: its stamp differs
    write_record(records, make_record(execution_id="r0003", intent="Rewritten"))
    assert landed["r0003.json"][0] != summarize_file(os.fspath(changed))[0]
    index = DirectoryIndex(
        resolve_root(records), use_cache=use_cache, rows=LISTING_ROWS, landed=marked
    )
    if use_cache:
        assert index.filled_listing_json() is None  # the scan takes what landed
    else:
        assert index.listing_json() is None
    summaries = {s.key: s for s in index.scan()}
    assert summaries["r0003.json"].intent == "Rewritten"
    assert {k for k, s in summaries.items() if s.intent == "LANDED"} == set(landed) - {"r0003.json"}
    if use_cache:  # what landed is stored as the cache: the next open reads no file
        again = DirectoryIndex(resolve_root(records), rows=LISTING_ROWS)
        assert again.fresh_listing_json() is not None
        assert {s.intent for s in again.scan()} == {"LANDED", "Rewritten"}


def test_with_another_thread_alive_the_files_are_summarized_when_the_sync_ends(
    tmp_path: Path,
) -> None:
    """Forking beside a live thread would copy its locks: then no helper is forked as
    the files land, and ``finish`` summarizes them (as the index would read them)."""
    import threading

    records = tmp_path / "records"
    records.mkdir()
    for i in range(3):
        write_record(records, make_record(execution_id=f"r{i:04d}"))
    paths = sorted(records.iterdir())
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        landing = Landing(rows=LISTING_ROWS, workers=2)
        for path in paths:
            landing(os.fspath(path))
        assert landing._helpers == []  # nothing forked
        landed = landing.finish()
    finally:
        stop.set()
        other.join()
    for path in paths:
        stamp, summary = summarize_file(os.fspath(path))
        assert landed[path.name] == (stamp, summary, LISTING_ROWS.row(summary))
