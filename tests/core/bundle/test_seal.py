"""What a bundle's manifest sealed, told to whatever reads its extracted copy: a record whose
bytes changed since it was bundled, or that the manifest never named, is tampered in its
summary wherever it is made (the index, however its summaries leave it; a detail), and so
in its one verdict; every other record, and every other root, is as before."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from intentus_tui.core.bundle.read import extract_bundle
from intentus_tui.core.bundle.seal import CHANGES_MARKER, bundle_changes
from intentus_tui.core.bundle.write import bundle_executions
from intentus_tui.core.detail import load_detail
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.model import Integrity, ReplayCode
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verdict import verdict_of
from tests.core.bundle.support import (
    BundleWorld,
    build_bundle_world,
    edit_record,
    forge_envelope,
    read_members,
    repack,
    write_tarball,
)
from tests.intentusnet_world import RealWorld

CHANGED = "the record changed since it was bundled: sha256 "
ADDED = "the record is not in its bundle's manifest: added since it was bundled"


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path) -> BundleWorld:
    return build_bundle_world(real_world, tmp_path / "incident")


@pytest.fixture
def copy(world: BundleWorld, tmp_path: Path) -> Path:
    """A bundle's copy: the success's record forged (its own checks pass), a record the
    manifest does not name added, the WAL-only execution's log and a snapshot changed."""
    good = tmp_path / "good.tar.gz"
    ids = [world.success, world.fallback, world.wal_only]
    bundle_executions(resolve_root(world.base), ids, good)
    forged = edit_record(
        good, tmp_path / "forged.tar.gz", f"records/{world.success}.json", forge_envelope
    )
    log = repack(forged, tmp_path / "log.tar.gz", f"wal/{world.wal_only}.wal", change=40)
    members = read_members(log)
    snapshot = next(info.name for info, _ in members if info.name.startswith("snapshots/"))
    changed = repack(log, tmp_path / "changed.tar.gz", snapshot, change=40)
    extra = tarfile.TarInfo(f"records/{world.invalidated}.json")
    data = (world.records / f"{world.invalidated}.json").read_bytes()
    extra.size = len(data)
    added = write_tarball(tmp_path / "added.tar.gz", [*read_members(changed), (extra, data)])
    directory = tmp_path / "copy"
    directory.mkdir()
    bundle = extract_bundle(added, directory)
    assert {p.kind for p in bundle.problems} == {"changed", "extra"}
    return directory


def test_the_reader_writes_down_the_records_not_sealed(copy: Path, world: BundleWorld) -> None:
    changes = bundle_changes(copy / "records")
    log = f"wal/{world.wal_only}.wal"  # a log is evidence too (the snapshot is no verdict's)
    assert sorted(changes) == sorted([f"{world.success}.json", f"{world.invalidated}.json", log])
    assert changes[log].startswith("its write-ahead log changed since it was bundled: sha256 ")
    assert changes[f"{world.success}.json"].startswith(CHANGED)
    assert changes[f"{world.invalidated}.json"].startswith(ADDED)
    detail = load_detail(copy / "records" / f"{world.success}.json", copy / "wal")
    assert detail.verify.ok  # its own checks pass: only the manifest knows
    verdict = detail.verdict
    assert verdict is not None and verdict.integrity is Integrity.TAMPERED
    assert verdict.integrity_reason.startswith(CHANGED)
    assert verdict.replay is ReplayCode.UNTRUSTED and not verdict.trusted
    untouched = load_detail(copy / "records" / f"{world.fallback}.json", copy / "wal").verdict
    assert untouched is not None and untouched.integrity is Integrity.VERIFIED


def test_the_index_says_it_however_its_summaries_leave_it(copy: Path, world: BundleWorld) -> None:
    index = DirectoryIndex(resolve_root(copy), use_cache=False)
    batches = [s for batch in index.scan_batches() for s in batch]
    records = copy / "records"
    for summaries in (
        batches,
        index.summaries(),
        index.update([records / f"{world.success}.json"])[0],
    ):
        by_key = {s.key: s for s in summaries}
        changed = by_key[f"{world.success}.json"]
        assert changed.bundle_change is not None and changed.bundle_change.startswith(CHANGED)
        assert changed.source == "record+wal"  # joined with its log, still tampered
        assert verdict_of(changed).integrity is Integrity.TAMPERED
    everything = {s.key: verdict_of(s) for s in index.summaries()}
    assert everything[f"{world.invalidated}.json"].integrity_reason.startswith(ADDED)
    assert everything[f"{world.fallback}.json"].integrity is Integrity.VERIFIED


def test_no_other_root_is_told_anything(copy: Path, world: BundleWorld, tmp_path: Path) -> None:
    """The original records, and a marker beside a directory not named ``records``."""
    original = DirectoryIndex(resolve_root(world.base), use_cache=False).scan()
    assert all(s.bundle_change is None for s in original)
    plain = tmp_path / "plain" / "evidence"
    plain.mkdir(parents=True)
    (plain / f"{world.success}.json").write_bytes(
        (copy / "records" / f"{world.success}.json").read_bytes()
    )
    (plain.parent / CHANGES_MARKER).write_bytes((copy / CHANGES_MARKER).read_bytes())
    assert bundle_changes(plain) == {}
    (summary,) = DirectoryIndex(resolve_root(plain), use_cache=False).scan()
    assert summary.bundle_change is None
