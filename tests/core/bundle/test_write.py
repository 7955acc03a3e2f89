"""Writing a bundle of real IntentusNet 1.3.0 executions: which files go in (the record, the
WAL found as the index joins it, the snapshots that name the execution), the manifest
(sha256, sizes, version, the verdicts ``verdict_of`` gives), a deterministic archive, and
an atomic write."""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from intentus_tui import __version__
from intentus_tui.core.bundle.read import BundleError
from intentus_tui.core.bundle.write import FILE_MODE, bundle_executions
from intentus_tui.core.execution_ids import UnknownExecutionError
from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.store import UnsafeIdError
from intentus_tui.core.verdict import verdict_of
from tests.core.bundle.support import BundleWorld, build_bundle_world, read_members
from tests.intentusnet_world import RealWorld

WHEN = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> BundleWorld:
    return build_bundle_world(real_world, tmp_path / "incident")


def test_a_bundle_holds_each_executions_record_wal_and_snapshots(
    world: BundleWorld, tmp_path: Path
) -> None:
    root = resolve_root(world.base)
    output = tmp_path / "evidence.tar.gz"
    # Prefixes as an operator types them; the same execution twice is bundled once.
    ids = [world.success[:8], world.wal_only[:10], world.fallback, world.success]
    manifest = bundle_executions(root, ids, output, created=WHEN)

    members = read_members(output)
    names = [info.name for info, _ in members]
    (snapshot,) = os.listdir(world.base / "snapshots")
    expected_files = sorted(
        [
            f"records/{world.success}.json",
            f"records/{world.fallback}.json",
            f"wal/{world.success}.wal",
            f"wal/{world.wal_only}.wal",
            f"snapshots/{snapshot}",
        ]
    )
    assert names == ["manifest.json", "manifest.sha256", *expected_files]
    assert [entry.path for entry in manifest.files] == expected_files

    on_disk = {
        f"records/{world.success}.json": world.records / f"{world.success}.json",
        f"records/{world.fallback}.json": world.records / f"{world.fallback}.json",
        f"wal/{world.success}.wal": world.wal / f"{world.success}.wal",
        f"wal/{world.wal_only}.wal": world.wal / f"{world.wal_only}.wal",
        f"snapshots/{snapshot}": world.base / "snapshots" / snapshot,
    }
    doc = json.loads(members[0][1])
    assert doc["format"] == "intentus-tui-bundle@1"
    assert doc["tool"] == {"name": "intentus-tui", "version": __version__}
    assert doc["created"] == "2026-03-01T12:00:00Z"
    for entry, (info, data) in zip(doc["files"], members[2:], strict=True):
        source = on_disk[entry["path"]]
        assert data == source.read_bytes()  # the very bytes, unchanged
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["size"] == len(data) == info.size
        # fixed owner and mode; the file's own modification time
        assert (info.uid, info.gid, info.uname, info.gname) == (0, 0, "", "")
        assert info.mode == FILE_MODE and info.type == tarfile.REGTYPE
        assert info.mtime == int(source.stat().st_mtime)
    digest_line = members[1][1].decode()
    assert digest_line == f"{hashlib.sha256(members[0][1]).hexdigest()}  manifest.json\n"

    executions = {e["execution_id"]: e for e in doc["executions"]}
    assert list(executions) == [world.success, world.wal_only, world.fallback]
    assert executions[world.success]["wal"] == f"wal/{world.success}.wal"
    assert executions[world.success]["snapshots"] == [f"snapshots/{snapshot}"]
    assert executions[world.wal_only]["record"] is None
    assert (
        executions[world.fallback]["wal"] is None and executions[world.fallback]["snapshots"] == []
    )


def test_the_manifest_carries_the_verdicts_the_listing_shows(
    world: BundleWorld, tmp_path: Path
) -> None:
    root = resolve_root(world.base)
    everything = [world.success, world.fallback, world.invalidated, world.truncated, world.wal_only]
    manifest = bundle_executions(root, everything, tmp_path / "all.tgz", created=WHEN)
    listing = {s.execution_id: verdict_of(s).to_json() for s in scan_root(root, use_cache=False)}
    bundled = {e.execution_id: e.verdict for e in manifest.executions}
    assert bundled == {i: listing[i] for i in everything}
    # what those verdicts are, as the real library wrote these executions
    assert bundled[world.invalidated]["replay"] == "manually_invalidated"
    assert bundled[world.truncated]["replay"] == "record_corrupted"
    assert bundled[world.wal_only]["replay"] == "no_record"
    assert bundled[world.success]["outcome"] == "succeeded"


def test_the_same_files_and_time_make_the_same_bytes(world: BundleWorld, tmp_path: Path) -> None:
    root = resolve_root(world.base)
    ids = [world.fallback, world.success, world.wal_only]
    first = tmp_path / "one.tar.gz"
    second = tmp_path / "two.tar.gz"
    bundle_executions(root, ids, first, created=WHEN)
    bundle_executions(root, list(reversed(ids)), second, created=WHEN)
    # the order of the executions is the order asked; the archive's member order is not
    assert [i.name for i, _ in read_members(first)] == [i.name for i, _ in read_members(second)]
    bundle_executions(root, ids, second, created=WHEN)
    assert first.read_bytes() == second.read_bytes()


def test_a_file_that_cannot_be_read_fails_before_anything_is_written(
    world: BundleWorld, tmp_path: Path
) -> None:
    """The archive is written through the one atomic write: an error mid-way (here a
    record replaced by a directory between the listing and the read) leaves the previous
    file as it was and no temp file."""
    root = resolve_root(world.base)
    output = tmp_path / "evidence.tar.gz"
    output.write_bytes(b"the previous bundle")
    victim = world.records / f"{world.fallback}.json"
    victim.unlink()
    victim.mkdir()
    with pytest.raises(BundleError, match="the file cannot be read"):
        bundle_executions(root, [world.success, world.fallback], output, created=WHEN)
    assert output.read_bytes() == b"the previous bundle"
    assert sorted(os.listdir(tmp_path)) == ["evidence.tar.gz", "incident"]


def test_ids_are_resolved_as_everywhere(world: BundleWorld, tmp_path: Path) -> None:
    root = resolve_root(world.base)
    with pytest.raises(UnknownExecutionError):
        bundle_executions(root, ["ffffffff"], tmp_path / "x.tar.gz")
    with pytest.raises(UnsafeIdError):
        bundle_executions(root, ["../records/x"], tmp_path / "x.tar.gz")
    assert not (tmp_path / "x.tar.gz").exists()


def test_a_write_that_fails_half_way_leaves_the_previous_file(
    world: BundleWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up after two members are in the archive: the previous bundle stays
    whole under its name and no temp file is left."""
    import errno

    from intentus_tui.core.bundle import write

    output = tmp_path / "evidence.tar.gz"
    output.write_bytes(b"the previous bundle")
    real_member = write._member
    written: list[str] = []

    def member_then_full_disk(name: str, size: int, mtime: int) -> tarfile.TarInfo:
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(name)
        return real_member(name, size, mtime)

    monkeypatch.setattr(write, "_member", member_then_full_disk)
    with pytest.raises(OSError, match="No space left"):
        bundle_executions(resolve_root(world.base), [world.success], output, created=WHEN)
    assert len(written) == 3
    assert output.read_bytes() == b"the previous bundle"
    assert sorted(os.listdir(tmp_path)) == ["evidence.tar.gz", "incident"]
