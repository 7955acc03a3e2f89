"""fsio: atomic writes that never leave a half file, reads that never block or leave the root."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from intentus_tui.core import fsio
from intentus_tui.core.fsio import (
    NotRegularFileError,
    OutsideLinkError,
    atomic_write,
    fsync_directory,
    open_confined,
    read_regular_file,
    temp_target,
    write_gathered,
)


def _names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# --- atomic write -------------------------------------------------------------------------


def test_atomic_write_replaces_the_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    target.write_bytes(b"old")
    assert atomic_write(target, b"new") == target
    assert target.read_bytes() == b"new"
    assert _names(tmp_path) == ["a.json"]


def test_atomic_write_takes_chunks(tmp_path: Path) -> None:
    target = tmp_path / "big.jsonl"
    atomic_write(target, (f"{i}\n".encode() for i in range(1000)))
    assert target.read_bytes() == b"".join(f"{i}\n".encode() for i in range(1000))


@pytest.mark.parametrize("failing", ["fsync", "replace", "write"])
def test_a_failed_write_keeps_the_old_file_and_removes_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "record.json"
    target.write_bytes(b"the old content")
    seen: list[list[str]] = []

    def fail(*args: object, **kwargs: object) -> None:
        seen.append(_names(tmp_path))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsio.os, failing, fail)
    with pytest.raises(OSError, match="No space left"):
        atomic_write(target, b"new content")
    monkeypatch.undo()
    # The failure struck while the temp file existed beside the target...
    (during,) = seen
    (temp,) = [n for n in during if n != "record.json"]
    assert temp_target(temp) == "record.json"
    # ...and afterwards only the untouched old file is there.
    assert target.read_bytes() == b"the old content"
    assert _names(tmp_path) == ["record.json"]


def test_an_interrupt_mid_write_also_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fsio.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "x.json", b"{}")
    monkeypatch.undo()
    assert _names(tmp_path) == []


def test_atomic_write_fsyncs_the_file_then_the_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        mode = os.fstat(fd).st_mode
        synced.append("directory" if stat.S_ISDIR(mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(fsio.os, "fsync", spy)
    atomic_write(tmp_path / "x.json", b"{}")
    assert synced == ["file", "directory"]
    synced.clear()
    atomic_write(tmp_path / "x.json", b"{}", durable=False)
    assert synced == []


def test_fsync_directory_syncs_and_tolerates_what_cannot_be_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    monkeypatch.setattr(fsio.os, "fsync", lambda fd: synced.append(fd))
    fsync_directory(tmp_path)
    assert len(synced) == 1
    fsync_directory(tmp_path / "gone")  # nothing to open: nothing to do, no error


def test_temp_names_are_hidden_and_recognised(tmp_path: Path) -> None:
    name = fsio.temp_name_for("abc.json")
    assert name.startswith(".abc.json.") and name.endswith(".tmp")
    assert temp_target(name) == "abc.json"
    assert temp_target("abc.json") is None
    assert temp_target(".abc.json.tmp") is None


# --- confined reads -----------------------------------------------------------------------


def test_a_regular_file_is_read_whole_or_up_to_a_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"0123456789")
    data, st = read_regular_file(path)
    assert data == b"0123456789" and st.st_size == 10
    assert read_regular_file(path, limit=4)[0] == b"0123"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_regular_file(fifo)
        except BaseException as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=5)
    assert not reader.is_alive(), "reading a FIFO with no writer blocked"
    (error,) = outcome
    assert isinstance(error, NotRegularFileError) and error.kind == "a FIFO (named pipe)"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.json").mkdir()
    with pytest.raises(NotRegularFileError) as info:
        read_regular_file(tmp_path / "d.json")
    assert info.value.kind == "a directory"


def test_a_device_is_refused() -> None:
    with pytest.raises(NotRegularFileError) as info:
        read_regular_file("/dev/null")
    assert info.value.kind == "a device"


def test_a_symlink_leading_outside_is_refused(tmp_path: Path) -> None:
    inside = tmp_path / "root"
    inside.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("private")
    (inside / "link.json").symlink_to(secret)
    with pytest.raises(OutsideLinkError, match="outside the directory"):
        read_regular_file(inside / "link.json")
    with pytest.raises(OutsideLinkError):
        open_confined(inside / "link.json")


def test_a_symlink_staying_inside_is_followed(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "real.json").write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "sub" / "real.json")
    assert read_regular_file(tmp_path / "link.json")[0] == b"{}"


def test_a_symlink_loop_is_an_error_not_a_hang(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    with pytest.raises(OSError):
        read_regular_file(tmp_path / "a.json")


# --- gathered write -----------------------------------------------------------------------


def test_a_gathered_write_writes_every_piece_in_order(tmp_path: Path) -> None:
    pieces: list[bytes | memoryview] = [b"a" * n for n in range(5000)]
    pieces[7] = memoryview(b"-view-")
    expected = b"".join(bytes(p) for p in pieces)
    fd = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT)
    try:
        write_gathered(fd, list(pieces))  # more pieces than one system call takes
    finally:
        os.close(fd)
    assert (tmp_path / "out").read_bytes() == expected


def test_a_short_write_resumes_mid_piece(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe or a signal can cut a write short: the rest follows, nothing twice."""
    real_writev = os.writev

    def at_most_7_bytes(fd: int, buffers: list[bytes | memoryview]) -> int:
        return real_writev(fd, [bytes(b"".join(bytes(b) for b in buffers)[:7])])

    monkeypatch.setattr(fsio.os, "writev", at_most_7_bytes)
    pieces: list[bytes | memoryview] = [b"first-", b"", b"second piece", memoryview(b"3rd")]
    fd = os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT)
    try:
        write_gathered(fd, pieces)
    finally:
        os.close(fd)
    assert (tmp_path / "out").read_bytes() == b"first-second piece3rd"


def test_a_write_that_makes_no_progress_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fsio.os, "writev", lambda fd, buffers: 0)
    with pytest.raises(OSError, match="no progress"):
        write_gathered(1, [b"row"])


@pytest.mark.parametrize("name", ["n" * 245 + ".json", "é" * 120 + ".json"])
def test_a_long_name_the_file_system_takes_is_written(tmp_path: Path, name: str) -> None:
    # export/snapshot/bundle -o of a 250-byte name said "file name too long": the name of
    # the temporary file beside it was, 18 bytes longer.
    target = tmp_path / name
    atomic_write(target, [b"{}"])
    assert target.read_bytes() == b"{}"
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left
