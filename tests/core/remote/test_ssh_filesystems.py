"""Opening an SSH root's filesystem on a real OpenSSH server: the connection acknowledges
what arrives at once (OpenSSH's server waits for acknowledgements before a small reply),
and everything still goes through it: listings, reads, the end of the connection."""

from __future__ import annotations

import socket
import sys

import pytest

from intentus_tui.core.remote.filesystems import _PromptAcks, open_filesystem
from intentus_tui.core.remote.location import RemoteOptions, parse_remote
from intentus_tui.core.remote.loop_thread import LoopThread
from tests.core.remote.sshd import SshServer
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host

linux_only = pytest.mark.skipif(
    not hasattr(socket, "TCP_QUICKACK"), reason="TCP_QUICKACK is Linux's"
)


@linux_only
def test_ssh_connection_acknowledges_at_once_and_still_reads(
    sshd: SshServer, real_world: RealWorld
) -> None:
    host = copy_host(real_world, sshd.served / "host1")
    location = parse_remote(sshd.url(host.base))
    loop_thread = LoopThread("test-remote")
    fs, path = open_filesystem(location, RemoteOptions(timeout=5), loop_thread.loop)
    client = fs._client
    try:
        assert isinstance(client._transport.get_protocol(), _PromptAcks)
        listed = {
            entry.rpartition("/")[2]
            for entry in fs.ls(f"{path}/.intentusnet/records", detail=False)
        }
        assert listed == {p.name for p in host.records.iterdir()}
        record = host.records / f"{host.ids[0]}.json"
        assert fs.cat_file(f"{path}/.intentusnet/records/{record.name}") == record.read_bytes()
    finally:
        loop_thread.stop(client, 2.0)
    assert client.is_closed()  # the end of the connection reached asyncssh through it


@linux_only
def test_prompt_acks_hand_everything_to_the_connection() -> None:
    seen: list[object] = []

    class Connection:
        def data_received(self, data: bytes) -> None:
            seen.append(data)

        def eof_received(self) -> bool:
            seen.append("eof")
            return False

        def connection_lost(self, exc: Exception | None) -> None:
            seen.append(("lost", exc))

        def pause_writing(self) -> None:
            seen.append("pause")

        def resume_writing(self) -> None:
            seen.append("resume")

    left, right = socket.socketpair()  # not TCP: the flag is refused, the bytes still go
    try:
        acks = _PromptAcks(Connection(), left)
        acks.data_received(b"abc")
        assert acks.eof_received() is False
        acks.pause_writing()
        acks.resume_writing()
        error = ConnectionResetError()
        acks.connection_lost(error)
    finally:
        left.close()
        right.close()
    assert seen == [b"abc", "eof", "pause", "resume", ("lost", error)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldconfig is Linux's")
def test_libraries_are_found_where_the_loader_looks() -> None:
    """While asyncssh is imported, a library is looked for only where the dynamic loader
    looks: the same answers as the standard lookup for libraries that are there and for
    one that is not, and the standard lookup is back after."""
    import ctypes.util

    from intentus_tui.core.remote.filesystems import _libraries_found_as_the_loader_would

    standard = ctypes.util.find_library
    expected = {name: standard(name) for name in ("c", "m", "no-such-library-anywhere")}
    assert expected["c"] is not None
    with _libraries_found_as_the_loader_would():
        assert ctypes.util.find_library is not standard
        found = {name: ctypes.util.find_library(name) for name in expected}
    assert ctypes.util.find_library is standard
    assert found == expected
