"""``inspect --list --json``'s ``counts`` has every key of the fixed vocabulary
(``core.verdict.COUNT_KEYS``), zero or not, whatever the directory holds: nothing at all,
files that are not records, only write-ahead logs; first open or from the cache, after
the debugger (whose index keeps no listing rows) cached it first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from intentus_tui.core.index.cache import CACHE_ENV
from intentus_tui.core.verdict import COUNT_KEYS


def listing_counts(directory: Path, cache: Path, *options: str) -> dict[str, int]:
    command = ["inspect", "--list", str(directory), "--json", *options]
    run = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", *command],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, CACHE_ENV: str(cache)},
    )
    assert run.returncode == 0, run.stderr
    counts: dict[str, int] = json.loads(run.stdout)["counts"]
    return counts


@pytest.mark.parametrize("holds", ["nothing", "not-records", "an-empty-wal-dir"])
def test_counts_of_a_directory_with_no_execution_have_every_key(holds: str, tmp_path: Path) -> None:
    directory = tmp_path / "here"
    directory.mkdir()
    if holds == "not-records":
        (directory / "notes.txt").write_text("[1]", encoding="utf-8")
        (directory / "data.csv").write_text("a,b\n", encoding="utf-8")
    if holds == "an-empty-wal-dir":
        (directory / "records").mkdir()
        (directory / "wal").mkdir()
    zeros = dict.fromkeys(COUNT_KEYS, 0)
    cache = tmp_path / "cache"
    for options in (("--no-cache",), (), ()):  # the second open is from the cache
        counts = listing_counts(directory, cache, *options)
        assert counts == zeros and tuple(counts) == COUNT_KEYS, options


def test_counts_after_the_debugger_cached_an_empty_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The debugger's index caches a snapshot without listing rows (and so without
    counts): the listing does not take its empty counts for the listing's."""
    from intentus_tui.core.index.cache import IndexCache
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.paths import resolve_root

    directory = tmp_path / "empty"
    directory.mkdir()
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    index = DirectoryIndex(resolve_root(directory), use_cache=True, rows=None)
    assert index.scan() == []
    snapshot = IndexCache().load(directory.resolve())
    assert snapshot is not None and snapshot.counts == {}  # what the debugger stored
    assert listing_counts(directory, cache) == dict.fromkeys(COUNT_KEYS, 0)
