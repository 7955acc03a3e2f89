"""Resolving an execution id or a unique prefix of one, over records written by the real
IntentusNet 1.3.0 and WALs written by its ``WALWriter``."""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.execution_ids import (
    AmbiguousExecutionError,
    ExecutionIdError,
    UnknownExecutionError,
    resolve_execution_id,
)
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.store import UnsafeIdError
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, save_as, write_wal_only

TWIN_A = "580f2534-aaaa-4000-8000-000000000001"
TWIN_B = "580f2534-bbbb-4000-8000-000000000002"
WAL_ONLY = "9c0ffee1-1111-4111-8111-111111111111"


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> Path:
    records = copy_real_world(real_world, tmp_path)
    save_as(records, real_world.success, TWIN_A)
    save_as(records, real_world.fallback, TWIN_B)
    write_wal_only(records.parent / "wal", WAL_ONLY)
    return tmp_path


def test_a_unique_prefix_resolves_to_the_whole_id(world: Path, real_world: RealWorld) -> None:
    root = resolve_root(world)
    for execution_id in (real_world.success, real_world.fallback, real_world.invalidated):
        match = resolve_execution_id(root, execution_id[:8])
        assert match.execution_id == execution_id
        assert match.record == root.records_dir / f"{execution_id}.json"
        assert match.wal is None


def test_the_whole_id_resolves_even_when_it_prefixes_another(
    world: Path, real_world: RealWorld
) -> None:
    records = world / ".intentusnet" / "records"
    save_as(records, real_world.success, "short-1")
    save_as(records, real_world.success, "short-10")
    root = resolve_root(world)
    assert resolve_execution_id(root, "short-1").execution_id == "short-1"
    assert resolve_execution_id(root, "short-10").execution_id == "short-10"
    with pytest.raises(AmbiguousExecutionError):
        resolve_execution_id(root, "short-")


def test_an_ambiguous_prefix_names_its_candidates(world: Path) -> None:
    with pytest.raises(AmbiguousExecutionError) as caught:
        resolve_execution_id(resolve_root(world), "580f2534")
    assert caught.value.candidates == (TWIN_A, TWIN_B)
    message = str(caught.value)
    assert "\n" not in message and TWIN_A in message and TWIN_B in message
    assert "580f2534" in message and "2 executions" in message


def test_many_candidates_are_cut_to_ten_and_counted(world: Path, real_world: RealWorld) -> None:
    records = world / ".intentusnet" / "records"
    source = records / f"{real_world.success}.json"
    ids = [f"c0de{i:04d}" for i in range(13)]
    for execution_id in ids:
        shutil.copy(source, records / f"{execution_id}.json")
    with pytest.raises(AmbiguousExecutionError) as caught:
        resolve_execution_id(resolve_root(world), "c0de")
    message = str(caught.value)
    assert caught.value.candidates == tuple(ids)
    assert all(i in message for i in ids[:10]) and not any(i in message for i in ids[10:])
    assert "13 executions" in message and "and 3 more" in message


def test_a_wal_only_execution_resolves_to_its_log(world: Path) -> None:
    root = resolve_root(world)
    match = resolve_execution_id(root, WAL_ONLY[:8])
    assert match.execution_id == WAL_ONLY
    assert match.record is None
    assert root.wal_dir is not None and match.wal == root.wal_dir / f"{WAL_ONLY}.wal"


def test_a_record_and_its_wal_are_one_execution(world: Path, real_world: RealWorld) -> None:
    """An execution with a record and a WAL is one candidate, not two."""
    write_wal_only(world / ".intentusnet" / "wal", TWIN_A)
    root = resolve_root(world)
    with pytest.raises(AmbiguousExecutionError) as caught:
        resolve_execution_id(root, "580f")
    assert caught.value.candidates == (TWIN_A, TWIN_B)
    match = resolve_execution_id(root, TWIN_A[:10])  # "580f2534-a": unique
    assert match.record is not None and match.wal is not None


def test_an_unknown_id_is_one_clear_line(world: Path) -> None:
    with pytest.raises(UnknownExecutionError) as caught:
        resolve_execution_id(resolve_root(world), "deadbeef")
    message = str(caught.value)
    assert "\n" not in message and "no execution 'deadbeef'" in message


def test_a_record_not_named_after_its_id_is_found_by_the_id_it_records(
    world: Path, real_world: RealWorld
) -> None:
    # The listing shows the id a record holds; a renamed file's id named nothing.
    records = world / ".intentusnet" / "records"
    renamed = records / "incident-copy.json"
    (records / f"{real_world.success}.json").rename(renamed)
    root = resolve_root(world)
    for text in (real_world.success, real_world.success[:8]):
        match = resolve_execution_id(root, text)
        assert (match.execution_id, match.record) == (real_world.success, renamed)
    with pytest.raises(UnknownExecutionError):
        resolve_execution_id(root, "deadbeef")


def test_a_recorded_id_that_is_no_safe_name_is_found_and_no_log_is_looked_for(
    world: Path, real_world: RealWorld
) -> None:
    records = world / ".intentusnet" / "records"
    path = records / "odd.json"
    doc = json.loads((records / f"{real_world.success}.json").read_text())
    doc["header"]["executionId"] = "zz/../evil"
    path.write_text(json.dumps(doc))
    match = resolve_execution_id(resolve_root(world), "zz")
    assert (match.record, match.wal) == (path, None)


def test_an_id_recorded_in_several_files_named_otherwise_asks_for_the_file(
    world: Path, real_world: RealWorld
) -> None:
    records = world / ".intentusnet" / "records"
    original = records / f"{real_world.fallback}.json"
    shutil.copy(original, records / "copy-a.json")
    original.rename(records / "copy-b.json")
    with pytest.raises(ExecutionIdError) as caught:
        resolve_execution_id(resolve_root(world), real_world.fallback[:8])
    assert str(caught.value) == (
        f"execution '{real_world.fallback}' is recorded in 2 files: "
        "copy-a.json, copy-b.json (name the file instead: its path, or its name with --dir)"
    )


def test_a_suffix_of_the_file_name_is_not_a_prefix_of_the_id(
    world: Path, real_world: RealWorld
) -> None:
    with pytest.raises(UnknownExecutionError):
        resolve_execution_id(resolve_root(world), f"{real_world.success}.js")


@pytest.mark.parametrize("unsafe", ["../records", "..", ".", ".hidden", "a/b", "a\\b", "x\x00"])
def test_unsafe_ids_are_refused(world: Path, unsafe: str) -> None:
    with pytest.raises(UnsafeIdError):
        resolve_execution_id(resolve_root(world), unsafe)


def test_resolving_reads_no_file(
    world: Path, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names only: one listing per directory, no record or WAL is opened (cheap beside
    100,000 records)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a file was opened: {args[:1]}")

    root = resolve_root(world)
    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    assert resolve_execution_id(root, real_world.success[:6]).execution_id == real_world.success
    assert resolve_execution_id(root, WAL_ONLY[:3]).execution_id == WAL_ONLY
    with pytest.raises(AmbiguousExecutionError):
        resolve_execution_id(root, "580f")
