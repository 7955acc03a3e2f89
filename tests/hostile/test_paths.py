"""Path confinement: ids and arguments cannot read or write outside the chosen directory.

Ids with ``..``, separators, NUL, a leading dot or an absolute path are refused before any
file is touched; a symlink inside the store that leads outside is never followed: the
loaders refuse it (a record not read, by id as in a listing) and the store's writes
refuse it. A path typed on the command line is read as typed (like ``cat``) but never
written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import ExecutionRecord, LoadStatus, load_record_file
from intentus_tui.core.records.replay import CachingReplayEngine, batch_replay
from intentus_tui.core.records.store import FileExecutionStore, UnsafeIdError
from intentus_tui.core.wal.read import read_wal
from tests.factories import make_record
from tests.hostile.corpus import dump_json
from tests.hostile.harness import tree_digest

UNSAFE_IDS = [
    "",
    ".",
    "..",
    "../x",
    "../../outside/secret",
    "..\\x",
    "a/b",
    "/etc/passwd",
    "/",
    "a\x00b",
    "\x00",
    ".hidden",
    ".x.json.tmp",
    "x/../../y",
]


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    records = tmp_path / "records"
    outside = tmp_path / "outside"
    records.mkdir()
    outside.mkdir()
    (records / "ok-1.json").write_bytes(dump_json(make_record(execution_id="ok-1")))
    (outside / "secret.json").write_bytes(dump_json(make_record(execution_id="secret")))
    os.symlink(outside / "secret.json", records / "secret.json")
    os.symlink(records / "ok-1.json", records / "alias.json")  # inside: allowed
    return records, outside


@pytest.mark.parametrize("bad", UNSAFE_IDS)
def test_every_store_operation_refuses_unsafe_ids(world: tuple[Path, Path], bad: str) -> None:
    records, _ = world
    before = tree_digest(records.parent)
    store = FileExecutionStore(records)
    raw = make_record()
    raw["header"]["executionId"] = bad  # make_record would replace "" with a fresh id
    record = ExecutionRecord.from_json(raw)
    for operation in (
        lambda: store.path_for(bad),
        lambda: store.load_result(bad),
        lambda: store.load(bad),
        lambda: store.invalidate(bad),
        lambda: store.save(record),
        lambda: CachingReplayEngine(store).replay(bad),
    ):
        with pytest.raises(UnsafeIdError):
            operation()
    result = batch_replay(store, [bad, "ok-1"])
    assert result[bad].payload is None and "Not replayable" in result[bad].warnings[0]
    assert result["ok-1"].payload == {"summary": "done"}
    assert tree_digest(records.parent) == before


def test_a_symlink_out_of_the_store_is_refused_for_lookups_and_writes(
    world: tuple[Path, Path],
) -> None:
    records, _ = world
    before = tree_digest(records.parent)
    store = FileExecutionStore(records)
    for operation in (
        lambda: store.path_for("secret"),
        lambda: store.load("secret"),
        lambda: store.invalidate("secret"),
        lambda: store.save(ExecutionRecord.from_json(make_record(execution_id="secret"))),
    ):
        with pytest.raises(UnsafeIdError, match="outside the store"):
            operation()
    assert store.path_for("alias") == records / "alias.json"  # a link inside is fine
    assert store.load("alias").execution_id == "ok-1"
    assert tree_digest(records.parent) == before


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("bad", [b for b in UNSAFE_IDS if b and "/" not in b] + ["../x"])
def test_cli_refuses_unsafe_ids_with_exit_2(
    world: tuple[Path, Path], bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records, _ = world
    monkeypatch.chdir(tmp_path)
    before = tree_digest(tmp_path)
    for command in ("inspect", "replay", "snapshot"):
        code, _, stderr = _cli(command, bad, "--dir", str(records))
        assert code == 2, (command, bad, stderr)
        assert stderr.startswith("intentus-tui: ") and len(stderr.splitlines()) == 1
    assert tree_digest(tmp_path) == before


def test_cli_never_follows_the_symlink_out_by_id(
    world: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By id, the link out is a record not read, as the list shows it: its target (a
    record that would replay) is never read."""
    records, _ = world
    monkeypatch.chdir(tmp_path)
    before = tree_digest(tmp_path)
    for command, expected in (("inspect", 0), ("replay", 3), ("snapshot", 1)):
        code, stdout, stderr = _cli(command, "secret", "--dir", str(records))
        assert code == expected, (command, stderr)
        assert "outside the directory: not followed" in stdout + stderr, (command, stderr)
        assert "summary" not in stdout  # the target's response, never read
    assert tree_digest(tmp_path) == before


def test_snapshot_names_never_come_from_a_hostile_execution_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default snapshot file is named after the execution id only when that id is safe."""
    records = tmp_path / "records"
    records.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for n, evil in enumerate(["../../escape", "/tmp/abs", "a\x00b", ".hidden", "\x1b[2J"]):
        path = records / f"evil-{n}.json"
        path.write_bytes(dump_json(make_record(execution_id=evil)))
        code, stdout, stderr = _cli("snapshot", str(path), "--dir", str(records))
        assert code == 0, stderr
        assert Path(stdout.strip()) == work / f"evil-{n}.snapshot.json"
    assert sorted(os.listdir(work)) == [f"evil-{n}.snapshot.json" for n in range(5)]
    assert sorted(os.listdir(tmp_path)) == ["records", "work"]
    code, _, stderr = _cli("snapshot", str(records / "evil-0.json"), "-o", str(records / "x.json"))
    assert code == 2 and "record directory" in stderr


def test_a_path_typed_on_the_command_line_is_read_never_written(
    world: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records, outside = world
    monkeypatch.chdir(tmp_path)
    before = tree_digest(tmp_path)
    secret = outside / "secret.json"
    for args in (
        ("inspect", str(secret), "--json"),
        ("verify", str(secret), "--json"),
        ("replay", str(secret), "--json"),
        ("diff", str(secret), str(records / "ok-1.json"), "--json"),
        ("inspect", "--list", str(outside), "--json"),
    ):
        code, stdout, _ = _cli(*args)
        assert code in (0, 1) and json.loads(stdout)
    assert tree_digest(tmp_path) == before


# A symlink that leads out of the directory holding it is not followed by the loaders
# (they open with O_NOFOLLOW and resolve only on ELOOP): a listing shows it as refused.
def test_listing_refuses_or_flags_a_record_symlink_out_of_the_directory(
    world: tuple[Path, Path], tmp_path: Path
) -> None:
    records, _ = world
    result = load_record_file(records / "secret.json")
    rows = {s.key: s for s in scan_root(RecordRoot(records, None, tmp_path), use_cache=False)}
    assert result.status is LoadStatus.UNREADABLE or "outside" in result.message
    assert "outside" in rows["secret.json"].message


def test_wal_reader_refuses_or_flags_a_symlink_out_of_the_directory(
    world: tuple[Path, Path], tmp_path: Path
) -> None:
    _, outside = world
    wal = tmp_path / "wal"
    wal.mkdir()
    (outside / "secret.wal").write_bytes(b"")
    os.symlink(outside / "secret.wal", wal / "secret.wal")
    log = read_wal(wal / "secret.wal")
    assert log.file_status == "unreadable" or "outside" in log.message
