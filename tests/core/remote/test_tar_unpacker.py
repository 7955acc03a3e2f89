"""Reading a tar stream pushed in pieces, as the SSH channel hands it over: a stream made
by the real GNU tar from real 1.3.0 records gives every member whole, whatever the pieces
(a member's header, its data and its padding split anywhere); a name sent twice is
refused; a stream cut short inside a member broke off (its tar is still asked next
time), where a stream that never held a header is no tar stream at all."""

from __future__ import annotations

import asyncio
import io
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from intentus_tui.core.remote.tar_lane import (
    TarRefused,
    TarUnavailable,
    _Feed,
    _Unpacker,
)
from tests.intentusnet_world import RealWorld

needs_tar = pytest.mark.skipif(shutil.which("tar") is None, reason="needs a tar on PATH")


def gnu_tar(directory: Path, names: list[str]) -> bytes:
    """The stream the server's tar sends for ``names`` (as the lane asks: ``./NAME`` one
    a line on its input, 256 KiB records)."""
    listed = "".join(f"./{name}\n" for name in names).encode()
    done = subprocess.run(
        ["tar", "-c", "-b", "512", "-f", "-", "-C", str(directory), "-T", "-"],
        input=listed,
        capture_output=True,
        check=True,
    )
    return done.stdout


def unpack(directory: Path, names: list[str], stream: bytes, pieces: list[int]) -> _Unpacker:
    """Push ``stream`` in pieces of the sizes ``pieces`` cycles through; the unpacker,
    with what it accepted (not written: ``take`` holds it)."""

    async def run() -> _Unpacker:
        feed = _Feed(None, str(directory), 5.0, listing=False)
        for name in names:
            feed.ask((name, str(directory / name), (directory / name).stat().st_size, 1.0))
        unpacker = _Unpacker(feed, lambda landed: None)
        at, turn = 0, 0
        while at < len(stream) and not unpacker.finished:
            size = pieces[turn % len(pieces)]
            unpacker.push(stream[at : at + size])
            at, turn = at + size, turn + 1
        if not unpacker.finished:
            unpacker.end()
        return unpacker

    return asyncio.run(run())


@needs_tar
@pytest.mark.parametrize(
    "pieces",
    [[1 << 20], [512], [1], [511, 513, 7], [3000, 100_000, 17]],
    ids=["whole", "blocks", "bytes", "odd", "mixed"],
)
def test_every_member_comes_whole_however_the_stream_is_cut(
    real_world: RealWorld, pieces: list[int]
) -> None:
    directory = real_world.records_dir
    names = sorted(path.name for path in directory.iterdir())
    stream = gnu_tar(directory, names)
    unpacker = unpack(directory, names, stream, pieces)
    got = {name.decode(): data for _, (name, data, _) in unpacker.take()}
    assert got == {name: (directory / name).read_bytes() for name in names}
    assert unpacker.accepted == set(range(len(names)))


@needs_tar
def test_a_member_sent_twice_is_refused(real_world: RealWorld) -> None:
    directory = real_world.records_dir
    name = sorted(path.name for path in directory.iterdir())[0]
    once = gnu_tar(directory, [name])
    member = once[: 512 + -(-(directory / name).stat().st_size // 512) * 512]
    with pytest.raises(TarRefused, match="appears twice"):
        unpack(directory, [name], member + member + bytes(1024), [1 << 20])


@needs_tar
def test_a_stream_cut_inside_a_member_broke_off(real_world: RealWorld) -> None:
    directory = real_world.records_dir
    names = sorted(path.name for path in directory.iterdir())[:2]
    stream = gnu_tar(directory, names)
    first = 512 + -(-(directory / names[0]).stat().st_size // 512) * 512
    unpacker = unpack(directory, names, stream[: first + 700], [1 << 20])
    assert unpacker.finished  # what came stays; the rest is read another way
    assert [index for index, _ in unpacker.take()] == [0]


def test_a_stream_without_a_header_is_no_tar_stream(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"{}")
    with pytest.raises(TarUnavailable):
        unpack(tmp_path, ["a.json"], b"", [1])


def test_a_pax_member_is_read_by_tarfile_and_checked_the_same(tmp_path: Path) -> None:
    """A member whose header is not one the quick reading takes (a pax header before it)
    is still accepted under its name, and refused when it is not a name asked for."""
    (tmp_path / "a.json").write_bytes(b'{"a": 1}')
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        info = tarfile.TarInfo("./a.json")
        info.size = 8
        info.pax_headers = {"comment": "x" * 10}
        archive.addfile(info, io.BytesIO(b'{"a": 1}'))
    unpacker = unpack(tmp_path, ["a.json"], buffer.getvalue(), [100])
    assert [(name, data) for _, (name, data, _) in unpacker.take()] == [(b"a.json", b'{"a": 1}')]
    (tmp_path / "b.json").write_bytes(b"{}")
    with pytest.raises(TarRefused, match="not asked for"):
        unpack(tmp_path, ["b.json"], buffer.getvalue(), [100])
