"""Chunks run on every core: every chunk's rows arrive exactly once, whatever a helper does."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.index import parallel
from intentus_tui.core.index.parallel import map_chunks, pooled

PARENT = os.getpid()
CHUNKS = [[f"{c}-{i}" for i in range(5)] for c in range(40)]
EXPECTED = sorted(name.upper() for chunk in CHUNKS for name in chunk)


def upper(chunk: list[str]) -> list[Any]:
    return [(name.upper(), os.getpid()) for name in chunk]


def decode(rows: list[Any]) -> list[tuple[str, int]]:
    return [(name, pid) for name, pid in rows]


def _names(batches: Any) -> list[str]:
    return sorted(name for batch in batches for name, _ in batch)


def _numbered_names(numbered: Any) -> list[str]:
    return _names(batch for _, batch in numbered)


@pytest.mark.parametrize("cores", [1, 2, 3])
def test_every_row_arrives_once(cores: int) -> None:
    assert _names(map_chunks(upper, decode, CHUNKS, cores)) == EXPECTED


def test_forked_helpers_share_the_work(tmp_path: Path) -> None:
    marker = tmp_path / "helper-worked"

    def parent_waits_for_a_helper(chunk: list[str]) -> list[Any]:
        if os.getpid() != PARENT:
            marker.touch()
        else:  # the parent's first chunk lasts until a helper has done one of its own
            deadline = time.monotonic() + 20
            while not marker.exists() and time.monotonic() < deadline:
                time.sleep(0.005)
        return upper(chunk)

    numbered = parallel._forked(parent_waits_for_a_helper, decode, CHUNKS, 1)
    rows = [row for _, batch in numbered for row in batch]
    assert sorted(name for name, _ in rows) == EXPECTED
    assert {pid for _, pid in rows} - {PARENT}, "the helper did none of the chunks"


def test_chunks_a_helper_claimed_and_never_sent_are_redone() -> None:
    def dies_in_helpers(chunk: list[str]) -> list[Any]:
        if os.getpid() != PARENT and chunk[0].startswith(("3-", "7-")):
            os._exit(9)  # killed mid-chunk: nothing sent for it, nor for any later chunk
        return upper(chunk)

    assert _numbered_names(parallel._forked(dies_in_helpers, decode, CHUNKS, 2)) == EXPECTED


def test_a_result_orjson_cannot_send_is_redone_here() -> None:
    def huge_in_helpers(chunk: list[str]) -> list[Any]:
        rows = upper(chunk)
        if os.getpid() != PARENT:
            rows.append(("TOO BIG", 10**20))  # beyond 64 bits: no orjson frame for it
        return rows

    rows = [
        row for _, batch in parallel._forked(huge_in_helpers, decode, CHUNKS, 1) for row in batch
    ]
    assert sorted(name for name, _ in rows) == EXPECTED  # every chunk, each once, from here


def test_a_helper_that_raises_loses_nothing() -> None:
    def raises_in_helpers(chunk: list[str]) -> list[Any]:
        if os.getpid() != PARENT:
            raise RuntimeError("boom")
        return upper(chunk)

    assert _numbered_names(parallel._forked(raises_in_helpers, decode, CHUNKS, 1)) == EXPECTED


@pytest.mark.parametrize("ordered", [False, True])
def test_stopping_early_leaves_no_helper_behind(ordered: bool) -> None:
    before = _children()
    batches = map_chunks(upper, decode, CHUNKS, 2, ordered=ordered)
    next(batches)
    batches.close()  # the consumer gave up: helpers are reaped, not left as zombies
    assert _children() - _forkserver() <= before


def _children() -> set[int]:
    """This process's children, alive or zombie (a reaped child is gone from the list).
    Compared before and after, not required empty: an earlier test in this process may
    have started a child of its own (the debugger's forkserver)."""
    tasks = Path(f"/proc/{os.getpid()}/task")
    if not tasks.is_dir():
        pytest.skip("needs /proc to list child processes")
    found: set[int] = set()
    for task in tasks.iterdir():
        try:
            found.update(int(pid) for pid in (task / "children").read_text().split())
        except FileNotFoundError:  # a thread that ended while we listed; its children moved on
            continue
    return found


def joined(chunk: list[str]) -> bytes:
    return "\n".join(name.upper() for name in chunk).encode()


@pytest.mark.parametrize("cores", [2, 3])
def test_ordered_results_come_in_the_chunks_order(cores: int, tmp_path: Path) -> None:
    marker = tmp_path / "a-later-chunk-is-done"

    def first_chunk_finishes_late(chunk: list[str]) -> list[Any]:
        if chunk[0].startswith("0-"):  # whoever claims it waits for a later chunk to finish
            deadline = time.monotonic() + 20
            while not marker.exists() and time.monotonic() < deadline:
                time.sleep(0.005)
        else:
            marker.touch()
        return upper(chunk)

    batches = map_chunks(first_chunk_finishes_late, decode, CHUNKS, cores, ordered=True)
    assert [name for batch in batches for name, _ in batch] == [
        name.upper() for chunk in CHUNKS for name in chunk
    ]


@pytest.mark.parametrize("cores", [1, 2])
def test_bytes_results_travel_as_they_are(cores: int) -> None:
    blocks = list(map_chunks(joined, bytes, CHUNKS, cores, ordered=True))
    assert blocks == [joined(chunk) for chunk in CHUNKS]


def test_ordered_results_survive_a_helper_that_dies() -> None:
    def dies_in_helpers(chunk: list[str]) -> bytes:
        if os.getpid() != PARENT and chunk[0].startswith(("3-", "7-")):
            os._exit(9)
        return joined(chunk)

    blocks = list(map_chunks(dies_in_helpers, bytes, CHUNKS, 3, ordered=True))
    assert blocks == [joined(chunk) for chunk in CHUNKS]


# The library's pool (``pooled``, what the debugger uses): work runs in worker processes,
# so it is a module-level function (the pool pickles it).


def dies_in_workers(chunk: list[str]) -> list[Any]:
    if os.getpid() != PARENT and chunk[0].startswith(("3-", "7-")):
        os._exit(9)  # killed mid-chunk: the pool breaks, every chunk left is redone here
    return upper(chunk)


def raises_in_workers(chunk: list[str]) -> list[Any]:
    if os.getpid() != PARENT:
        raise RuntimeError("boom")
    return upper(chunk)


@pytest.mark.parametrize("ordered", [False, True])
def test_the_pool_does_every_chunk_once(ordered: bool) -> None:
    rows = [row for batch in pooled(upper, decode, CHUNKS, 2, ordered=ordered) for row in batch]
    assert sorted(name for name, _ in rows) == EXPECTED
    assert {pid for _, pid in rows} - {PARENT}, "the workers did none of the chunks"


def test_the_first_chunk_is_done_here_before_any_worker_starts() -> None:
    first = next(pooled(upper, decode, CHUNKS, 2))
    assert first == [(name.upper(), PARENT) for name in CHUNKS[0]]


@pytest.mark.parametrize("ordered", [False, True])
def test_chunks_of_a_worker_that_died_are_redone(ordered: bool) -> None:
    assert _names(pooled(dies_in_workers, decode, CHUNKS, 3, ordered=ordered)) == EXPECTED


def test_a_worker_that_raises_loses_nothing() -> None:
    assert _names(pooled(raises_in_workers, decode, CHUNKS, 2)) == EXPECTED


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
def test_the_pools_ordered_results_come_in_the_chunks_order(cores: int, tmp_path: Path) -> None:
    work = partial(second_chunk_finishes_late, tmp_path / "a-later-chunk-is-done")
    batches = pooled(work, decode, CHUNKS, cores, ordered=True)
    assert [name for batch in batches for name, _ in batch] == [
        name.upper() for chunk in CHUNKS for name in chunk
    ]


@pytest.mark.parametrize("ordered", [False, True])
def test_stopping_the_pool_early_leaves_no_worker_behind(ordered: bool) -> None:
    before = _children()
    batches = pooled(upper, decode, CHUNKS, 2, ordered=ordered)
    next(batches)
    next(batches)  # the pool is running
    batches.close()
    assert _children() - _forkserver() <= before


def _forkserver() -> set[int]:
    """The standard library's forkserver and resource tracker, if this process started
    them: they outlive every pool on purpose (the next pool forks from the one, the other
    cleans up after all), so they are not workers left behind."""
    from multiprocessing import forkserver, resource_tracker

    pids = (
        getattr(forkserver._forkserver, "_forkserver_pid", None),
        getattr(resource_tracker._resource_tracker, "_pid", None),
    )
    return {pid for pid in pids if pid}
