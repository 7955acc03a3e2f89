"""Remote roots over a real OpenSSH server: the listing, the local mirror, cheap
re-opens, read-only, and the faults (unknown host, refused, authentication, a server
killed mid-scan). Records and WALs written by the real intentusnet 1.3.0."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.core.actions import ActionError, invalidate, load_detail
from intentus_tui.core.index.directory import DirectoryIndex, scan_root
from intentus_tui.core.remote.location import RemoteOptions, parse_remote
from intentus_tui.core.remote.mirror import RemoteMirror
from intentus_tui.core.roots import open_roots
from tests.core.remote.sshd import SshServer
from tests.intentusnet_world import RealWorld
from tests.roots_world import WAL_ONLY_ID, copy_host

FAST = RemoteOptions(timeout=5)


def test_ssh_root_lists_as_the_same_directory_does_locally(
    sshd: SshServer, real_world: RealWorld
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is None and entry.root is not None
    remote = {s.key: s for s in scan_root(entry.root, use_cache=False)}
    local = {s.key: s for s in scan_root(copy_root(host.base), use_cache=False)}
    assert set(remote) == {f"{i}.json" for i in host.ids} | {f"{WAL_ONLY_ID}.wal"}
    for key, summary in local.items():  # the same verdicts, field by field (not the times)
        theirs = remote[key]
        assert (theirs.execution_id, theirs.state, theirs.hash_status, theirs.load_status) == (
            summary.execution_id,
            summary.state,
            summary.hash_status,
            summary.load_status,
        )
        assert theirs.size == summary.size and theirs.wal_state == summary.wal_state


def copy_root(base: Path):  # type: ignore[no-untyped-def]
    from intentus_tui.core.paths import resolve_root

    return resolve_root(base)


def test_reopen_reads_only_changed_files(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    location = parse_remote(sshd.url(host.base))
    first = RemoteMirror(location, FAST).sync()
    assert first.problem is None
    assert first.read_files == len(host.ids) + 1
    warm = RemoteMirror(location, FAST).sync()  # a new process: the manifest on disk
    assert (warm.read_files, warm.read_bytes, warm.problem) == (0, 0, None)
    changed = host.records / f"{real_world.success}.json"
    changed.write_bytes(changed.read_bytes().replace(b'"fb-secondary"', b'"fb-tertiary"', 1))
    (host.records / f"{real_world.fallback}.json").unlink()
    again = RemoteMirror(location, FAST).sync()
    assert (again.read_files, again.removed) == (1, 1)
    assert again.read_bytes == changed.stat().st_size


def test_warm_index_of_an_unchanged_remote_reads_no_record_bytes(
    sshd: SshServer, real_world: RealWorld
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    url = sshd.url(host.base)
    [entry] = open_roots([url], FAST)
    assert entry.root is not None
    DirectoryIndex(entry.root).scan()  # fills the local index cache
    [again] = open_roots([url], FAST)
    assert again.mirror is not None and again.root is not None
    report = again.mirror.sync()
    assert report.read_bytes == 0
    index = DirectoryIndex(again.root)
    assert index.fresh_listing_json() is None  # WALs to join: it scans, from the cache
    assert len(index.scan()) == len(host.ids) + 1


def test_remote_root_is_read_only(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.root is not None and entry.read_only is not None
    detail = load_detail(entry.root.records_dir / f"{real_world.success}.json")
    with pytest.raises(
        ActionError, match=r"^read-only root: a local copy of the remote root ssh://"
    ):
        invalidate(detail)
    before = (host.records / f"{real_world.success}.json").read_bytes()
    assert b"manually_invalidated" not in before


def test_unknown_host_is_refused_unless_accepted(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    (sshd.home / ".ssh" / "known_hosts").write_text("")
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is not None
    assert "unknown host key for 127.0.0.1: refused" in entry.problem
    [accepted] = open_roots([sshd.url(host.base)], RemoteOptions(accept_unknown_host=True))
    assert accepted.problem is None


def test_host_key_mismatch_is_refused(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    wrong = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMuE8Pgv9Xw6Cw0Q6qzJb7vX3l1c9N4KkQvXc5bJ3q9K"
    (sshd.home / ".ssh" / "known_hosts").write_text(f"[127.0.0.1]:{sshd.port} {wrong}\n")
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is not None and "127.0.0.1" in entry.problem
    assert "refused" in entry.problem


def test_authentication_failure_is_one_line(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    (sshd.home / ".ssh" / "id_ed25519").unlink()
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is not None and "authentication failed" in entry.problem


def test_connection_refused(sshd: SshServer, real_world: RealWorld) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    sshd.stop()
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert (
        entry.problem == f"{parse_remote(sshd.url(host.base)).url}: connection refused by 127.0.0.1"
    )
    assert entry.root is None  # nothing was ever read from it: it failed


def test_several_roots_one_unreachable(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    local = copy_host(real_world, tmp_path / "laptop")
    dead = sshd.url(host.base, port=1)
    opened = open_roots([str(local.base), sshd.url(host.base), dead], FAST)
    assert [e.label for e in opened] == ["laptop", "127.0.0.1", "127.0.0.1#2"]
    assert [e.problem is None for e in opened] == [True, True, False]


def test_huge_record_is_listed_from_ranged_reads(sshd: SshServer, real_world: RealWorld) -> None:
    import json

    from intentus_tui.core.model import LoadStatus
    from intentus_tui.core.records.load import HUGE_FILE_BYTES

    host = copy_host(real_world, sshd.served / "host1", with_wal=False)
    source = host.records / f"{real_world.success}.json"
    record = json.loads(source.read_text())
    record["events"][-1]["payload"]["padding"] = "x" * (HUGE_FILE_BYTES + 1000)
    source.write_text(json.dumps(record, indent=2))  # the hash is unchanged: events only
    size = source.stat().st_size
    location = parse_remote(sshd.url(host.base))
    mirror = RemoteMirror(location, FAST)
    report = mirror.sync()
    others = sum(p.stat().st_size for p in host.records.glob("*.json") if p != source)
    assert report.read_bytes - others <= (1 << 20) + (1 << 16)  # head and tail, not 16 MB
    copy = mirror.records_dir / source.name
    assert copy.stat().st_size == size and mirror.is_partial(copy)
    local = {s.key: s for s in scan_root(copy_root(host.base), use_cache=False)}[source.name]
    remote = {s.key: s for s in scan_root(mirror.root, use_cache=False)}[source.name]
    assert remote.load_status is local.load_status is LoadStatus.HEAD_ONLY
    assert (remote.state, remote.replayable, remote.intent) == (
        local.state,
        local.replayable,
        local.intent,
    )
    assert mirror.fetch_whole(copy) is None  # opened: read whole now
    assert copy.read_bytes() == source.read_bytes() and not mirror.is_partial(copy)


def test_a_command_that_syncs_once_keeps_no_connection(
    sshd: SshServer, real_world: RealWorld
) -> None:
    """The command line opens a remote root, syncs it once and closes it: no connection
    nor its thread is left (a process with other threads indexes through a slower pool),
    and a later sync connects again."""
    import os
    import threading

    host = copy_host(real_world, sshd.served / "host1")
    before = set(threading.enumerate())
    [entry] = open_roots([sshd.url(host.base)], FAST)
    assert entry.problem is None and entry.mirror is not None and entry.root is not None
    assert [t.name for t in set(threading.enumerate()) - before if t.is_alive()] == []
    assert len(scan_root(entry.root, use_cache=False)) == len(host.ids) + 1
    os.utime(host.records / f"{real_world.success}.json", (1_700_000_000, 1_700_000_000))
    again = entry.mirror.sync()
    assert (again.problem, again.read_files) == (None, 1)
    entry.mirror.close()
