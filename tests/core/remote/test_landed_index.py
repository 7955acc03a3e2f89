"""Record files summarized by forked helpers while a sync copies them (a real OpenSSH
server, real 1.3.0 records and a WAL): the index that follows reads no record and lists
exactly what reading the mirror's files gives; a sync that copied only part of the
mirror stores nothing, and the index reads what changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import intentus_tui.core.index.scan as scan_module
from intentus_tui.core.index.directory import DirectoryIndex, scan_root
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.remote.location import RemoteOptions, parse_remote
from intentus_tui.core.remote.mirror import RemoteMirror
from intentus_tui.core.roots import open_roots
from intentus_tui.render.rows import LISTING_ROWS
from tests.core.remote.sshd import SshServer
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host

FAST = RemoteOptions(timeout=5)


def index_reading(root: RecordRoot, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], int]:
    """The index of ``root`` through the cache, and how many record files it read."""
    real = scan_module.summarize_file
    read: list[str] = []

    def counting(path: str) -> Any:
        read.append(path)
        return real(path)

    monkeypatch.setattr(scan_module, "summarize_file", counting)
    try:
        return DirectoryIndex(root).scan(), len(read)
    finally:
        monkeypatch.setattr(scan_module, "summarize_file", real)


def rows(summaries: list[Any]) -> list[bytes]:
    return [LISTING_ROWS.row(s) for s in summaries]


@pytest.mark.parametrize("lane", ["tar", "sftp"])
def test_summaries_made_as_files_land_are_the_index(
    lane: str, sshd: SshServer, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    options = RemoteOptions(timeout=5, tar_lane=lane == "tar")
    mirror = RemoteMirror(parse_remote(sshd.url(host.base)), options)
    report = mirror.sync(summarize=True)
    mirror.close()
    assert (report.problem, report.indexed) == (None, True)
    summaries, read = index_reading(mirror.root, monkeypatch)
    assert read == 0  # every summary came from the snapshot made while copying
    fresh = scan_root(mirror.root, use_cache=False)  # the mirror's files, read now
    assert summaries == fresh
    assert rows(summaries) == rows(fresh)
    assert len(summaries) == len(host.ids) + 1  # the records and the WAL-only execution


def test_without_summarizing_the_index_reads_every_record(
    sshd: SshServer, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the debugger's polling syncs: nothing stored, the index reads the files."""
    host = copy_host(real_world, sshd.served / "host1")
    mirror = RemoteMirror(parse_remote(sshd.url(host.base)), FAST)
    report = mirror.sync()
    mirror.close()
    assert (report.problem, report.indexed) == (None, False)
    summaries, read = index_reading(mirror.root, monkeypatch)
    assert read == len(host.ids)
    assert summaries == scan_root(mirror.root, use_cache=False)


def test_the_command_line_open_leaves_an_index_that_reads_no_record(
    sshd: SshServer, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is None and entry.root is not None
    summaries, read = index_reading(entry.root, monkeypatch)
    assert read == 0
    assert summaries == scan_root(entry.root, use_cache=False)


def test_a_sync_of_part_of_the_mirror_stores_nothing(
    sshd: SshServer, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    location = parse_remote(sshd.url(host.base))
    first = RemoteMirror(location, FAST)
    first.sync()
    first.close()
    DirectoryIndex(first.root).scan()  # the snapshot of the first copy
    changed = host.records / f"{real_world.success}.json"
    changed.write_bytes(changed.read_bytes().replace(b'"fb-secondary"', b'"fb-tertiary"', 1))
    again = RemoteMirror(location, FAST)
    report = again.sync(summarize=True)
    again.close()
    assert (report.problem, report.read_files, report.indexed) == (None, 1, False)
    summaries, read = index_reading(again.root, monkeypatch)
    assert read == 1  # the changed file only
    assert summaries == scan_root(again.root, use_cache=False)
    mirrored = again.records_dir / changed.name
    assert mirrored.read_bytes() == changed.read_bytes()


def test_helpers_are_not_forked_beside_other_threads(
    sshd: SshServer, real_world: RealWorld, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A second sync of one mirror (its connection's thread alive, as in the debugger's
    polling) summarizes nothing: forking then would copy that thread's locks."""
    host = copy_host(real_world, sshd.served / "host1")
    mirror = RemoteMirror(parse_remote(sshd.url(host.base)), FAST)
    assert mirror.sync().indexed is False
    (host.records / f"{real_world.success}.json").write_bytes(b"{}")
    report = mirror.sync(summarize=True)
    mirror.close()
    assert (report.problem, report.read_files, report.indexed) == (None, 1, False)
