"""Chunks run on every core: every chunk's rows arrive exactly once, whatever a worker does."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.index.parallel import map_chunks

PARENT = os.getpid()
CHUNKS = [[f"{c}-{i}" for i in range(5)] for c in range(40)]
EXPECTED = sorted(name.upper() for chunk in CHUNKS for name in chunk)


def upper(chunk: list[str]) -> list[Any]:
    return [(name.upper(), os.getpid()) for name in chunk]


def decode(rows: list[Any]) -> list[tuple[str, int]]:
    return [(name, pid) for name, pid in rows]


def _names(batches: Any) -> list[str]:
    return sorted(name for batch in batches for name, _ in batch)


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_every_row_arrives_once(cores: int) -> None:
    assert _names(map_chunks(upper, decode, CHUNKS, cores)) == EXPECTED


# Work runs in worker processes, so it is a module-level function (the pool pickles it).


def dies_in_workers(chunk: list[str]) -> list[Any]:
    if os.getpid() != PARENT and chunk[0].startswith(("3-", "7-")):
        os._exit(9)  # killed mid-chunk: the pool breaks, every chunk left is redone here
    return upper(chunk)


def raises_in_workers(chunk: list[str]) -> list[Any]:
    if os.getpid() != PARENT:
        raise RuntimeError("boom")
    return upper(chunk)


def test_workers_do_the_work() -> None:
    rows = [row for batch in map_chunks(upper, decode, CHUNKS, 2) for row in batch]
    assert sorted(name for name, _ in rows) == EXPECTED
    assert {pid for _, pid in rows} - {PARENT}, "the workers did none of the chunks"


def test_the_first_chunk_is_done_here_before_any_worker_starts() -> None:
    first = next(map_chunks(upper, decode, CHUNKS, 2))
    assert first == [(name.upper(), PARENT) for name in CHUNKS[0]]


@pytest.mark.parametrize("ordered", [False, True])
def test_chunks_of_a_worker_that_died_are_redone(ordered: bool) -> None:
    assert _names(map_chunks(dies_in_workers, decode, CHUNKS, 3, ordered=ordered)) == EXPECTED


def test_a_worker_that_raises_loses_nothing() -> None:
    assert _names(map_chunks(raises_in_workers, decode, CHUNKS, 2)) == EXPECTED


@pytest.mark.parametrize("ordered", [False, True])
def test_stopping_early_leaves_no_worker_behind(ordered: bool) -> None:
    batches = map_chunks(upper, decode, CHUNKS, 2, ordered=ordered)
    next(batches)
    batches.close()  # the consumer gave up: workers are reaped, not left as zombies
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def joined(chunk: list[str]) -> bytes:
    return "\n".join(name.upper() for name in chunk).encode()


def second_chunk_finishes_late(marker: Path, chunk: list[str]) -> list[Any]:
    """The first chunk the pool gets waits until a later chunk is done."""
    if chunk[0].startswith("1-"):
        deadline = time.monotonic() + 20
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.005)
    else:
        marker.touch()
    return upper(chunk)


@pytest.mark.parametrize("cores", [2, 3])
def test_ordered_results_come_in_the_chunks_order(cores: int, tmp_path: Path) -> None:
    work = partial(second_chunk_finishes_late, tmp_path / "a-later-chunk-is-done")
    batches = map_chunks(work, decode, CHUNKS, cores, ordered=True)
    assert [name for batch in batches for name, _ in batch] == [
        name.upper() for chunk in CHUNKS for name in chunk
    ]


@pytest.mark.parametrize("cores", [1, 2])
def test_bytes_results_travel_as_they_are(cores: int) -> None:
    blocks = list(map_chunks(joined, bytes, CHUNKS, cores, ordered=True))
    assert blocks == [joined(chunk) for chunk in CHUNKS]


def dies_in_workers_joined(chunk: list[str]) -> bytes:
    if os.getpid() != PARENT and chunk[0].startswith(("3-", "7-")):
        os._exit(9)
    return joined(chunk)


def test_ordered_results_survive_a_worker_that_dies() -> None:
    blocks = list(map_chunks(dies_in_workers_joined, bytes, CHUNKS, 3, ordered=True))
    assert blocks == [joined(chunk) for chunk in CHUNKS]
