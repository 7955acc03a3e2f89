"""The tar lane on a real OpenSSH server: the changed files copied as one stream from the
server's tar over an exec channel. It gives the same mirror and the same listing as the
SFTP lane (real 1.3.0 records and a WAL); a server that runs no command, or has no tar,
is read over SFTP; a hostile stream is refused with one line, nothing is written outside
the mirror, and the rest is still read."""

from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.directory import scan_root
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.remote.location import RemoteOptions, parse_remote
from intentus_tui.core.remote.mirror import MANIFEST, RemoteMirror, SyncReport
from tests.core.remote.sshd import SshServer, serving
from tests.intentusnet_world import RealWorld
from tests.roots_world import Host, copy_host

TAR = RemoteOptions(timeout=5)
SFTP = RemoteOptions(timeout=5, tar_lane=False)


def mirror_in(
    cache: Path, monkeypatch: pytest.MonkeyPatch, url: str, options: RemoteOptions
) -> RemoteMirror:
    """A mirror of ``url`` whose cache is ``cache`` (each lane its own)."""
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(cache))
    return RemoteMirror(parse_remote(url), options)


def files_of(directory: Path) -> dict[str, tuple[bytes, int]]:
    """name -> (bytes, whole-second modification time) of the regular files in a mirror
    directory (the remote's times come in whole seconds)."""
    found = {}
    for path in sorted(directory.iterdir()):
        assert path.is_file() and not path.is_symlink(), path
        found[path.name] = (path.read_bytes(), int(path.stat().st_mtime))
    return found


def summaries(root):  # type: ignore[no-untyped-def]
    return {
        s.key: (s.execution_id, s.state, s.hash_status, s.load_status, s.size, s.wal_state)
        for s in scan_root(root, use_cache=False)
    }


def test_tar_lane_gives_the_same_mirror_and_listing_as_sftp(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    url = sshd.url(host.base)
    by_tar = mirror_in(tmp_path / "cache-tar", monkeypatch, url, TAR)
    tar_report = by_tar.sync()
    by_sftp = mirror_in(tmp_path / "cache-sftp", monkeypatch, url, SFTP)
    sftp_report = by_sftp.sync()
    count = len(host.ids) + 1  # the records and the WAL
    assert (tar_report.problem, tar_report.read_files, tar_report.streamed) == (None, count, count)
    assert (sftp_report.problem, sftp_report.read_files, sftp_report.streamed) == (None, count, 0)
    assert tar_report.read_bytes == sftp_report.read_bytes
    for part in ("records", "wal"):
        copied = files_of(by_tar.directory / part)
        assert copied == files_of(by_sftp.directory / part)
        source = host.records if part == "records" else host.wal
        assert copied == {
            p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in source.iterdir()
        }
    manifests = [json.loads((m.directory / MANIFEST).read_text()) for m in (by_tar, by_sftp)]
    assert manifests[0]["files"] == manifests[1]["files"]
    for mirror, report in ((by_tar, tar_report), (by_sftp, sftp_report)):  # every copy named
        copies = [p for part in ("records", "wal") for p in (mirror.directory / part).iterdir()]
        assert sorted(report.changed) == sorted(copies)
    listed = summaries(by_tar.root)
    assert listed == summaries(by_sftp.root) == summaries(resolve_root(host.base))
    assert len(listed) == count

    # A warm re-open reads nothing; a changed record and a grown WAL are read again (the
    # changed copy replaced whole).
    again = mirror_in(tmp_path / "cache-tar", monkeypatch, url, TAR)
    assert (again.sync().read_bytes, again.last_problem) == (0, None)
    changed = host.records / f"{real_world.success}.json"
    changed.write_bytes(changed.read_bytes().replace(b'"fb-secondary"', b'"fb-tertiary"', 1))
    os.utime(changed, (1_700_000_000, 1_700_000_000))
    [wal] = host.wal.iterdir()
    with wal.open("ab") as out:
        out.write(b"\n")
    report = again.sync()
    assert (report.problem, report.read_files, report.streamed) == (None, 2, 2)
    assert files_of(again.records_dir)[changed.name] == (changed.read_bytes(), 1_700_000_000)
    assert (again.wal_dir / wal.name).read_bytes() == wal.read_bytes()


def test_hard_linked_names_are_both_copied(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path
) -> None:
    """tar sends a second name of one file as a link to the first: that one is read over
    SFTP, never made a link in the mirror."""
    host = copy_host(real_world, sshd.served / "host1", with_wal=False)
    original = host.records / f"{real_world.success}.json"
    os.link(original, host.records / "second-name.json")
    mirror = RemoteMirror(parse_remote(sshd.url(host.base)), TAR)
    report = mirror.sync()
    count = len(host.ids) + 1
    assert (report.problem, report.read_files, report.streamed) == (None, count, count - 1)
    copies = files_of(mirror.records_dir)
    assert copies["second-name.json"] == copies[original.name]
    assert (mirror.records_dir / "second-name.json").stat().st_nlink == 1


def served_host(server: SshServer, real_world: RealWorld) -> Host:
    return copy_host(real_world, server.served / "host1")


@pytest.mark.parametrize(
    "config",
    [
        ["ForceCommand internal-sftp"],  # an SFTP-only account: no command runs
        ["SetEnv PATH=/nonexistent"],  # no tar on the server's PATH
    ],
    ids=["sftp-only", "no-tar"],
)
def test_server_without_a_usable_tar_is_read_over_sftp(
    config: list[str], real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(tmp_path, monkeypatch, config) as server:
        host = served_host(server, real_world)
        mirror = RemoteMirror(parse_remote(server.url(host.base)), TAR)
        report = mirror.sync()
        count = len(host.ids) + 1
        assert (report.problem, report.read_files, report.streamed) == (None, count, 0)
        assert summaries(mirror.root) == summaries(resolve_root(host.base))
        changed = host.records / f"{real_world.success}.json"
        changed.write_bytes(changed.read_bytes() + b"\n")
        again = mirror.sync()  # asked no more: SFTP straight away
        assert (again.problem, again.read_files, again.streamed) == (None, 1, 0)


def _member(name: str, data: bytes = b"", **fields: object) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 1_700_000_000
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


HOSTILE = {
    "not-asked": (lambda first: _member("./intruder.json", b"{}"), "a name that was not asked for"),
    "dot-dot": (lambda first: _member("../outside.json", b"{}"), "'..' in its path"),
    "absolute": (lambda first: _member("/tmp/outside-absolute.json", b"{}"), "an absolute path"),
    "symlink": (
        lambda first: _member(f"./{first}", type=tarfile.SYMTYPE, linkname="/etc/passwd"),
        "a symbolic link",
    ),
    "hard-link-out": (
        lambda first: _member(f"./{first}", type=tarfile.LNKTYPE, linkname="/etc/passwd"),
        "a hard link to '/etc/passwd'",
    ),
    "device": (lambda first: _member(f"./{first}", type=tarfile.CHRTYPE), "a device or FIFO"),
    "oversize": (
        lambda first: _member(f"./{first}", size=40 << 20),  # the header claims 40 MiB
        "over the limit",
    ),
}


def _hostile_archive(path: Path, good: Path, bad: tuple[tarfile.TarInfo, bytes]) -> None:
    """One genuine member (``good``'s bytes, under its name), then ``bad``; an oversize
    member's data is cut short (it is refused on its header)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        info, data = _member(f"./{good.name}", good.read_bytes())
        archive.addfile(info, io.BytesIO(data))
        info, data = bad
        if info.size > len(data):
            buffer.write(info.tobuf(tarfile.GNU_FORMAT, "utf-8", "surrogateescape"))
            buffer.write(b"\0" * 4096)
        else:
            archive.addfile(info, io.BytesIO(data) if info.isreg() else None)
    path.write_bytes(buffer.getvalue())


def _fake_tar(directory: Path, script: str) -> list[str]:
    """A ``tar`` first on the server's PATH, running ``script``; the sshd_config line."""
    directory.mkdir()
    tar = directory / "tar"
    tar.write_text(f"#!/bin/sh\n{script}\n")
    tar.chmod(0o755)
    return [f"SetEnv PATH={directory}:/usr/bin:/bin"]


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_stream_is_refused_with_one_line(
    kind: str, real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_bad, why = HOSTILE[kind]
    good = real_world.records_dir / f"{real_world.success}.json"
    archive = tmp_path / "hostile.tar"
    _hostile_archive(archive, good, make_bad(f"{real_world.fallback}.json"))
    # It reads the names asked for first, as a real tar does before it sends a member.
    config = _fake_tar(tmp_path / "fakebin", f"cat >/dev/null; exec cat {archive}")
    outside = [Path("/tmp/outside-absolute.json"), tmp_path / "outside.json"]
    with serving(tmp_path, monkeypatch, config) as server:
        host = served_host(server, real_world)
        mirror = RemoteMirror(parse_remote(server.url(host.base)), TAR)
        before = _files_outside(tmp_path, mirror)
        report = mirror.sync()
        assert report.problem is not None and "\n" not in report.problem
        assert report.problem.startswith(f"{parse_remote(server.url(host.base)).url}: tar stream")
        assert why in report.problem and "refused" in report.problem
        assert _files_outside(tmp_path, mirror) == before
        assert not any(p.exists() for p in outside)
        assert report.streamed == 1  # the genuine member before the hostile one stays
        # Everything else was read over SFTP in the same sync: the whole listing is there.
        assert files_of(mirror.records_dir) == {
            p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in host.records.iterdir()
        }
        assert summaries(mirror.root) == summaries(resolve_root(host.base))
        quiet = mirror.sync()  # said once; that server's tar is asked no more
        assert (quiet.problem, quiet.read_files) == (None, 0)


def _files_outside(base: Path, mirror: RemoteMirror) -> set[Path]:
    return {
        p
        for p in base.rglob("*")
        if mirror.directory not in p.parents and p != mirror.directory and p.name != "sshd.pid"
    }


def test_a_pax_format_stream_is_read(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GNU tar writing POSIX (pax) headers, as some systems make it do by default."""
    config = _fake_tar(tmp_path / "fakebin", 'exec /usr/bin/tar --format=posix "$@"')
    with serving(tmp_path, monkeypatch, config) as server:
        host = served_host(server, real_world)
        mirror = RemoteMirror(parse_remote(server.url(host.base)), TAR)
        report: SyncReport = mirror.sync()
        count = len(host.ids) + 1
        assert (report.problem, report.read_files, report.streamed) == (None, count, count)
        assert files_of(mirror.records_dir) == {
            p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in host.records.iterdir()
        }


def test_a_tar_that_makes_no_empty_archive_is_asked_again(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """busybox tar sends nothing (and fails) when asked for no file, as for a directory
    still empty at a first sync: that says nothing about its tar, which copies the files
    that come later."""
    script = (
        'names=$(cat); [ -n "$names" ] || exit 1\nprintf "%s\\n" "$names" | exec /usr/bin/tar "$@"'
    )
    config = _fake_tar(tmp_path / "fakebin", script)
    with serving(tmp_path, monkeypatch, config) as server:
        base = server.served / "host1"
        records = base / ".intentusnet" / "records"
        records.mkdir(parents=True)
        mirror = RemoteMirror(parse_remote(server.url(base)), TAR)
        empty = mirror.sync()
        assert (empty.problem, empty.read_files) == (None, 0)
        for source in real_world.records_dir.iterdir():
            (records / source.name).write_bytes(source.read_bytes())
        count = len(list(records.iterdir()))
        report = mirror.sync()
        assert (report.problem, report.read_files, report.streamed) == (None, count, count)


def test_a_tar_without_record_sizes_still_streams(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """busybox tar has no -b: it fails before reading a name, and tar runs again
    without it."""
    script = 'case " $* " in *" -b "*) echo "tar: unrecognized option: b" >&2; exit 1;; esac\n'
    script += 'exec /usr/bin/tar "$@"'
    config = _fake_tar(tmp_path / "fakebin", script)
    with serving(tmp_path, monkeypatch, config) as server:
        host = served_host(server, real_world)
        mirror = RemoteMirror(parse_remote(server.url(host.base)), TAR)
        report = mirror.sync()
        count = len(host.ids) + 1
        assert (report.problem, report.read_files, report.streamed) == (None, count, count)
        assert files_of(mirror.records_dir) == {
            p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in host.records.iterdir()
        }


def test_a_first_copy_streams_whatever_the_directory_is_called(
    sshd: SshServer, real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first copy's tar process is asked for before the directory is known, and told it
    on its first line of input: quotes and spaces in the path come through as they are."""
    host = copy_host(real_world, sshd.served / "it's a $HOME `host`")
    mirror = mirror_in(tmp_path / "cache", monkeypatch, sshd.url(host.base), TAR)
    report = mirror.sync()
    count = len(host.ids) + 1
    assert (report.problem, report.read_files, report.streamed) == (None, count, count)
    assert files_of(mirror.records_dir) == {
        p.name: (p.read_bytes(), int(p.stat().st_mtime)) for p in host.records.iterdir()
    }
    mirror.close()


def test_a_directory_no_line_can_carry_gets_a_process_of_its_own() -> None:
    from intentus_tui.core.remote.find_listing import early_line, list_then_tar_command

    assert early_line("/srv/it's here") == b"/srv/it's here\n"
    assert early_line("relative/dir") == b"./relative/dir\n"  # as list_then_tar_command
    assert "./relative/dir" in list_then_tar_command("relative/dir")
    assert early_line("/srv/two\nlines") is None


@settings(max_examples=300)
@given(st.binary(min_size=512, max_size=512) | st.sampled_from([b"\xff" * 512, bytes(512)]))
def test_a_header_sum_is_the_sum_of_its_bytes(block: bytes) -> None:
    from intentus_tui.core.remote.tar_lane import byte_sum

    assert byte_sum(block) == sum(block)
    assert byte_sum(block[:100]) == sum(block[:100])


def test_a_manifest_with_a_name_that_is_not_utf8_is_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manifest is written by orjson, which takes no lone surrogate (a name that was
    not UTF-8): such a manifest is written escaped instead, and still read back (else
    every sync would copy everything again)."""
    url = "ssh://user@example.invalid/srv"
    mirror = mirror_in(tmp_path / "cache", monkeypatch, url, TAR)
    odd = "caf\udce9.json"  # b"caf\xe9.json" as the filesystem decodes it
    mirror._manifest["records"] = {
        odd: [10, "2026-01-01 00:00:00+00:00", False],
        "a.json": [2, "s", True],
    }
    mirror._save_manifest()
    again = mirror_in(tmp_path / "cache", monkeypatch, url, TAR)
    assert again._manifest["records"] == mirror._manifest["records"]
    assert again.has_copy


@pytest.mark.parametrize("enabled", [True, False], ids=["on", "off"])
def test_a_sync_runs_without_the_cyclic_collector_and_leaves_it_as_it_was(
    enabled: bool,
    sshd: SshServer,
    real_world: RealWorld,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    host = copy_host(real_world, sshd.served / "host1")
    mirror = mirror_in(tmp_path / "cache", monkeypatch, sshd.url(host.base), TAR)
    during: list[bool] = []
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        report = mirror.sync(lambda path: during.append(gc.isenabled()))
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
        mirror.close()
    assert report.problem is None and during and not any(during)
    assert after is enabled
