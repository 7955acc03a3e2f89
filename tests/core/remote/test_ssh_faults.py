"""Network faults on a real OpenSSH server: the server killed mid-scan, and a stalled
link (a proxy that stops forwarding), through both lanes (one tar stream, and SFTP reads).
One clear line each, what was read is kept, nothing hangs, and the next sync reconnects."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from intentus_tui.core.remote.location import RemoteOptions, parse_remote
from intentus_tui.core.remote.mirror import RemoteMirror
from tests.core.remote.sshd import SshServer, StallingProxy
from tests.intentusnet_world import RealWorld

MANY = 300
# A tar stream runs ahead of the reader by the SSH channel's window (megabytes), and the
# files are reported to the caller in batches after they land: records padded to 256 KB
# (75 MB in all) make the stream long enough to be cut in the middle.
PADDING = {"tar": 256 * 1024, "sftp": 0}
LANES = pytest.mark.parametrize("lane", ["tar", "sftp"])


def many_records(real_world: RealWorld, directory: Path, padding: int = 0) -> None:
    """``MANY`` real records (the success record, renamed to each new id; ``padding``
    bytes added to its last event's payload, which the envelope hash does not cover)."""
    directory.mkdir(parents=True)
    source = json.loads((real_world.records_dir / f"{real_world.success}.json").read_text())
    if padding:
        source["events"][-1]["payload"]["padding"] = "x" * padding
    for i in range(MANY):
        execution_id = f"exec-{i:08x}"
        source["header"]["executionId"] = execution_id
        (directory / f"{execution_id}.json").write_text(json.dumps(source, indent=2))


@LANES
def test_server_killed_mid_scan(sshd: SshServer, real_world: RealWorld, lane: str) -> None:
    many_records(real_world, sshd.served / "host" / "records", PADDING[lane])
    location = parse_remote(sshd.url(sshd.served / "host"))
    options = RemoteOptions(timeout=3, parallel=4, tar_lane=lane == "tar")
    mirror = RemoteMirror(location, options)
    seen: list[str] = []

    def on_file(path: str) -> None:
        seen.append(path)
        if len(seen) == 20:
            sshd.stop()

    started = time.monotonic()
    report = mirror.sync(on_file)
    assert time.monotonic() - started < 15
    assert report.problem == f"{location.url}: connection dropped"
    assert 20 <= report.read_files < MANY
    kept = sorted(p.name for p in mirror.records_dir.glob("*.json"))
    assert len(kept) == report.read_files  # what was read stays
    sshd.start()
    again = mirror.sync()  # the next poll connects again and reads only the rest
    assert again.problem is None
    assert again.read_files == MANY - report.read_files
    assert len(list(mirror.records_dir.glob("*.json"))) == MANY


@LANES
def test_stalled_link_times_out_with_one_line(
    sshd: SshServer, real_world: RealWorld, lane: str
) -> None:
    many_records(real_world, sshd.served / "host" / "records", PADDING[lane])
    proxy = StallingProxy(sshd.port)
    try:
        sshd.trust(proxy.port)
        location = parse_remote(sshd.url(sshd.served / "host", port=proxy.port))
        options = RemoteOptions(timeout=2, parallel=4, tar_lane=lane == "tar")
        mirror = RemoteMirror(location, options)
        count = 0
        stalled_at = 0.0

        def on_file(_: str) -> None:
            nonlocal count, stalled_at
            count += 1
            if count == 10:
                proxy.stalled.set()
                stalled_at = time.monotonic()

        report = mirror.sync(on_file)
        took = time.monotonic() - stalled_at
        assert report.problem == f"{location.url}: no answer within 2 s (stalled or unreachable)"
        # Said about the timeout after the link stalled (the reads in flight then time
        # out), not after SFTP's open files were closed over the dead link (4 s).
        assert took < 3.5, took
        assert 10 <= report.read_files < MANY
        proxy.stalled.clear()
        again = mirror.sync()
        assert again.problem is None
        assert again.read_files == MANY - report.read_files
    finally:
        proxy.close()
