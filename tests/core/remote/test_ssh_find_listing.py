"""The listing by the server's ``find`` (in the process that then runs tar) on a real
OpenSSH server: the same entries and stamps as the SFTP listing, odd names included
(spaces, a newline, a control character, a fraction of a second, a time before 1970),
links never followed; a server without GNU find is listed over SFTP."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from intentus_tui.core.remote import tar_lane
from intentus_tui.core.remote.find_listing import parse_entry, whole_seconds
from intentus_tui.core.remote.mirror import MANIFEST
from tests.core.remote.sshd import SshServer, serving
from tests.core.remote.test_ssh_tar_lane import SFTP, TAR, files_of, mirror_in, summaries
from tests.intentusnet_world import RealWorld
from tests.roots_world import Host, copy_host


def odd_host(real_world: RealWorld, base: Path) -> Host:
    """Real records and a WAL, plus records under odd names and times, a link leading out
    of the directory, a link to a record, a directory and a file that are not records."""
    host = copy_host(real_world, base)
    record = (host.records / f"{real_world.success}.json").read_bytes()
    for name in ("with space.json", "line\nbreak.json", "bell\x07.json", "dash -x.json"):
        (host.records / name).write_bytes(record)
    fraction = host.records / "fraction.json"
    fraction.write_bytes(record)
    os.utime(fraction, ns=(1_700_000_000_999_999_999, 1_700_000_000_999_999_999))
    before_1970 = host.records / "before-1970.json"
    before_1970.write_bytes(record)
    os.utime(before_1970, ns=(-5_500_000_000, -5_500_000_000))
    (host.records / "outside.json").symlink_to("/etc/passwd")
    (host.records / "inside.json").symlink_to(f"{real_world.success}.json")
    (host.records / "folder.json").mkdir()
    (host.records / "notes.txt").write_text("not a record")
    return host


async def _sftp_lists_nothing(*args: object) -> bool:
    return False


@pytest.mark.parametrize("race", ["find-alone", "find-and-sftp"])
def test_find_listing_gives_the_sftp_listing_and_stamps(
    race: str,
    sshd: SshServer,
    real_world: RealWorld,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With SFTP's side of the race made to list nothing, every name comes from find;
    racing as it does (SFTP starts first), names come from both."""
    host = odd_host(real_world, sshd.served / "host1")
    url = sshd.url(host.base)
    with monkeypatch.context() as patch:
        if race == "find-alone":
            patch.setattr(tar_lane, "_list_over_sftp", _sftp_lists_nothing)
        by_find = mirror_in(tmp_path / "cache-find", monkeypatch, url, TAR)
        found = by_find.sync()
    by_sftp = mirror_in(tmp_path / "cache-sftp", monkeypatch, url, SFTP)
    listed = by_sftp.sync()
    assert found.problem is None
    if race == "find-alone":
        assert found.listed_by_find == 2  # records and WAL
    assert (listed.problem, listed.listed_by_find) == (None, 0)
    assert found.listed == listed.listed
    manifests = [json.loads((m.directory / MANIFEST).read_text()) for m in (by_find, by_sftp)]
    assert manifests[0]["files"] == manifests[1]["files"]  # every stamp, byte for byte
    names = set(manifests[0]["files"]["records"])
    assert {"with space.json", "line\nbreak.json", "bell\x07.json", "dash -x.json"} <= names
    assert not names & {"outside.json", "inside.json", "folder.json", "notes.txt"}
    for part in ("records", "wal"):
        assert files_of(by_find.directory / part) == files_of(by_sftp.directory / part)
    copied = files_of(by_find.records_dir)
    assert copied["fraction.json"][1] == 1_700_000_000
    assert summaries(by_find.root) == summaries(by_sftp.root)

    # Listed over SFTP, the mirror listed by find is found unchanged: nothing is read again.
    again = mirror_in(tmp_path / "cache-find", monkeypatch, url, SFTP)
    report = again.sync()
    assert (report.problem, report.listed, report.read_files) == (None, listed.listed, 0)


def test_a_server_without_gnu_find_is_listed_over_sftp(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """busybox's find has no -printf: the listing comes over SFTP, the files from tar."""
    fakebin = tmp_path / "fakebin"
    fakebin.mkdir()
    (fakebin / "find").write_text("#!/bin/sh\necho 'find: unrecognized: -printf' >&2\nexit 1\n")
    (fakebin / "find").chmod(0o755)
    with serving(tmp_path, monkeypatch, [f"SetEnv PATH={fakebin}:/usr/bin:/bin"]) as server:
        host = copy_host(real_world, server.served / "host1")
        url = server.url(host.base)
        mirror = mirror_in(tmp_path / "cache", monkeypatch, url, TAR)
        report = mirror.sync()
        count = len(host.ids) + 1
        assert (report.problem, report.listed_by_find) == (None, 0)
        assert (report.read_files, report.streamed) == (count, count)
        assert files_of(mirror.records_dir) == {
            p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in host.records.iterdir()
        }


def test_find_records_read_as_sftp_carries_them() -> None:
    entry = parse_entry("/r", b"f 12 1700000000.9999999999 line\nbreak .json")
    assert entry["name"] == "/r/line\nbreak .json"
    assert (entry["size"], entry["type"]) == (12, "file")
    assert entry["mtime"].timestamp() == 1_700_000_000  # never rounded up
    assert parse_entry("/r", b"l 11 1700000000.0 link.json")["type"] == "other"
    # GNU find writes -5.5 s as its seconds and nanoseconds: -6 and .5; SFTP's 32 bits wrap.
    assert whole_seconds(b"-6.5000000000") == 2**32 - 6
    assert whole_seconds(b"-5.0000000000") == 2**32 - 5
    for bad in (b"f 12 1700000000.0 a/b.json", b"f 12 1700000000.0 ", b"f x 1.0 a.json"):
        with pytest.raises(ValueError):
            parse_entry("/r", bad)
    with pytest.raises(UnicodeDecodeError):
        parse_entry("/r", b"f 12 1700000000.0 \xff.json")


def test_a_listing_left_unread_never_holds_up_the_stream(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SFTP lists first; what find then writes (here 20 MB that is no listing) shares the
    channel's window with the tar stream: it is read and dropped, and the files come."""
    fakebin = tmp_path / "fakebin"
    fakebin.mkdir()
    (fakebin / "find").write_text("#!/bin/sh\nyes not-a-listing-record | head -c 20000000\n")
    (fakebin / "tar").write_text('#!/bin/sh\nsleep 1\nexec /usr/bin/tar "$@"\n')  # after it
    for tool in ("find", "tar"):
        (fakebin / tool).chmod(0o755)
    with serving(tmp_path, monkeypatch, [f"SetEnv PATH={fakebin}:/usr/bin:/bin"]) as server:
        host = copy_host(real_world, server.served / "host1")
        mirror = mirror_in(tmp_path / "cache", monkeypatch, server.url(host.base), TAR)
        report = mirror.sync()
        count = len(host.ids) + 1
        assert (report.problem, report.listed_by_find) == (None, 0)
        assert (report.read_files, report.streamed) == (count, count)
