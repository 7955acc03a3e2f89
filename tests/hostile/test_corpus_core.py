"""Every file of the hostile corpus through every core reader: classified, never raised, never blocked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from intentus_tui.core.detail import load_detail
from intentus_tui.core.index.directory import DirectoryIndex, scan_root
from intentus_tui.core.paths import list_record_paths, resolve_root
from intentus_tui.core.records.load import LoadStatus, load_record_file
from intentus_tui.core.verist.baselines import load_baseline
from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot
from intentus_tui.core.wal.read import read_wal, scan_wal_dir
from tests.hostile.corpus import Corpus, build_corpus
from tests.hostile.harness import deadline, exercise, exercise_wal


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("hostile"))


def test_every_record_file_is_classified_as_expected_and_survives_every_consumer(
    corpus: Corpus,
) -> None:
    wrong: list[str] = []
    for path in corpus.record_paths():
        expected = corpus.records[path.name]
        with deadline(10, f"loading {path.name!r}"):
            result = load_record_file(path)
            exercise(result)
        if result.status.value not in expected.statuses:
            wrong.append(f"{path.name!r} ({expected.why}): {result.status} {result.message}")
    assert not wrong, "\n".join(wrong)


def test_every_wal_file_is_classified_and_survives_every_consumer(corpus: Corpus) -> None:
    wrong: list[str] = []
    for path in corpus.wal_paths():
        expected = corpus.wals[path.name]
        with deadline(10, f"reading {path.name!r}"):
            log = read_wal(path)
            exercise_wal(log)
        if log.file_status not in expected.statuses:
            wrong.append(f"{path.name!r} ({expected.why}): {log.file_status} {log.message}")
    assert not wrong, "\n".join(wrong)


def test_detail_of_every_file_joined_with_its_wal(corpus: Corpus) -> None:
    for path in [*corpus.record_paths(), *corpus.wal_paths()]:
        with deadline(10, f"detail of {path.name!r}"):
            detail = load_detail(path, corpus.wal_dir)
        assert detail.verify is not None and detail.postmortem is not None


def test_fifos_do_not_block_any_reader(corpus: Corpus) -> None:
    """Nobody writes to these FIFOs: a plain open() would wait forever."""
    fifo_json = corpus.records_dir / "fifo.json"
    fifo_wal = corpus.wal_dir / "fifo.wal"
    with deadline(5, "FIFO"):
        assert load_record_file(fifo_json).status is LoadStatus.NOT_A_FILE
        assert read_wal(fifo_wal).file_status != "ok"
        for loader in (load_snapshot, load_baseline):
            with pytest.raises(SnapshotError):
                loader(fifo_json)


def test_scan_lists_every_file_once_and_the_wal_only_executions(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    root = resolve_root(corpus.intentusnet)
    assert root.records_dir == corpus.records_dir and root.wal_dir == corpus.wal_dir
    record_names = {p.name for p in corpus.record_paths()}
    wal_only = {n for n in corpus.wals if f"{n.removesuffix('.wal')}.json" not in corpus.records}
    for use_cache in (False, True, True):  # cold, then filling the cache, then from it
        with deadline(30, "scan"):
            keys = [s.key for s in scan_root(root, use_cache=use_cache, workers=1)]
        assert len(keys) == len(set(keys))
        assert set(keys) == record_names | wal_only


def test_update_with_every_path_twice_changes_nothing(corpus: Corpus) -> None:
    root = resolve_root(corpus.intentusnet)
    index = DirectoryIndex(root, use_cache=False, workers=1)
    before = [s.key for s in index.scan()]
    paths = [*list_record_paths(corpus.records_dir), *corpus.wal_paths()]
    with deadline(30, "update"):
        index.update(paths)
        index.update(paths)
    assert [s.key for s in index.summaries()] == before


def test_wal_directory_scan_reads_every_wal(corpus: Corpus) -> None:
    with deadline(30, "scan_wal_dir"):
        logs = scan_wal_dir(corpus.wal_dir)
    assert set(logs) == {n.removesuffix(".wal") for n in corpus.wals}


def test_snapshot_loaders_refuse_with_snapshot_error_only(corpus: Corpus) -> None:
    for path in corpus.record_paths():
        for loader in (load_snapshot, load_baseline):
            with deadline(10, f"{loader.__name__} {path.name!r}"):
                try:
                    loader(path)
                except SnapshotError as exc:
                    assert str(exc)


def test_corpus_builds_twice_in_the_same_place(tmp_path: Path) -> None:
    first = build_corpus(tmp_path)
    second = build_corpus(tmp_path)
    assert first.records == second.records
    assert sorted(os.listdir(first.records_dir)) == sorted(os.listdir(second.records_dir))
