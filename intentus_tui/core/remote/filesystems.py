"""Opening an fsspec filesystem for a remote root, safely, and saying in one line what
went wrong when the network does.

ssh: keys and the agent as OpenSSH's client finds them (asyncssh reads ``~/.ssh``), and
the host key checked against ``~/.ssh/known_hosts``: an unknown host is refused unless
``accept_unknown_host`` (sshfs alone would not check host keys at all). s3: credentials
the standard AWS way (environment, profile, instance role); an endpoint for
S3-compatible stores. Every connection and read has a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from intentus_tui.core.remote.location import RemoteLocation, RemoteOptions
from intentus_tui.core.sanitize import sanitize_line


class RemoteError(Exception):
    """A remote root cannot be reached or read: its message is the one line to show."""


def known_hosts_files() -> list[str]:
    """The user's known_hosts files, as ``ssh`` reads them."""
    home = Path(os.path.expanduser("~")) / ".ssh"
    return [str(p) for p in (home / "known_hosts", home / "known_hosts2") if p.is_file()]


def open_filesystem(
    location: RemoteLocation, options: RemoteOptions, loop: Any = None
) -> tuple[Any, str]:
    """(a fresh filesystem, the root's path on it); ``RemoteError`` when it cannot be opened.
    ``loop``: the event loop an ssh connection runs on (else fsspec's own)."""
    try:
        return _open(location, options, loop)
    except RemoteError:
        raise
    except ImportError as exc:
        raise RemoteError(missing_package(location, exc)) from None
    except PermissionError:  # refused while connecting: the keys, not a file
        who = location.user or "the current user"
        raise RemoteError(f"{location.url}: authentication failed for {who}") from None
    except Exception as exc:
        raise RemoteError(describe_fault(exc, location, options)) from None


def missing_package(location: RemoteLocation, exc: ImportError) -> str:
    extra = {"ssh": "ssh", "s3": "s3"}.get(location.protocol)
    hint = f"pip install 'intentus-tui[{extra}]'" if extra else "install its fsspec package"
    return f"{location.url}: {location.protocol}:// needs a package that is not installed ({hint})"


def _open(location: RemoteLocation, options: RemoteOptions, loop: Any) -> tuple[Any, str]:
    if location.protocol == "ssh":
        SSHFileSystem = _ssh_filesystem_class()

        if options.accept_unknown_host:
            known_hosts: Any = None
        else:
            known_hosts = known_hosts_files()
            if not known_hosts:
                raise RemoteError(
                    f"{location.url}: host key of {location.host} cannot be checked: no "
                    "~/.ssh/known_hosts (connect once with ssh, or pass --accept-unknown-host)"
                )
        kwargs: dict[str, Any] = {
            "known_hosts": known_hosts,
            "timeout": options.timeout,  # the connection's setup
            "connect_timeout": options.timeout,
            "keepalive_interval": max(1.0, options.timeout / 3),  # a dead link is noticed
            "keepalive_count_max": 3,
            "skip_instance_cache": True,  # after a fault, the next poll connects again
            "encryption_algs": _encryption_preference(),
        }
        if loop is not None:
            kwargs["loop"] = loop
        if location.port:
            kwargs["port"] = location.port
        if location.user:
            kwargs["username"] = location.user
        return SSHFileSystem(location.host, **kwargs), location.path
    if location.protocol == "s3":
        from s3fs import S3FileSystem

        client_kwargs: dict[str, Any] = {}
        endpoint = options.endpoint()
        if endpoint:
            client_kwargs["endpoint_url"] = endpoint
        fs = S3FileSystem(
            skip_instance_cache=True,
            client_kwargs=client_kwargs,
            config_kwargs={
                "connect_timeout": options.timeout,
                "read_timeout": options.timeout,
                "retries": {"max_attempts": 2},
            },
        )
        return fs, location.path
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(location.url, skip_instance_cache=True)
    return fs, path


def _ssh_filesystem_class() -> Any:
    """sshfs's filesystem, able to run on a loop of the caller's: sshfs hands every
    keyword to ``asyncssh.connect`` too, which takes no ``loop`` (it runs on the loop it
    is called on), so the loop is kept from it."""
    from fsspec.asyn import sync_wrapper

    with _libraries_found_as_the_loader_would():
        from sshfs import SSHFileSystem

    class OnLoop(SSHFileSystem):
        async def _connect(self, *args: Any, connect_args: dict[str, Any], **kwargs: Any) -> Any:
            connect_args = {k: v for k, v in connect_args.items() if k != "loop"}
            client, pool = await super()._connect(*args, connect_args=connect_args, **kwargs)
            acknowledge_promptly(client)
            return client, pool

        connect = sync_wrapper(_connect)

    return OnLoop


@contextlib.contextmanager
def _libraries_found_as_the_loader_would() -> Iterator[None]:
    """While asyncssh is imported: ``ctypes.util.find_library`` asks only where the
    dynamic loader looks (its cache, and ``LD_LIBRARY_PATH``), not the C compiler too.

    Importing asyncssh looks for liboqs (a post-quantum key exchange) by two names. On
    Linux each look runs ``ldconfig -p``, then ``gcc`` (with its linker and ``objdump``)
    and ``ld`` when the cache has no such library: 20-40 ms before the connection can
    start, with no liboqs installed. A library only the compiler finds is one the loader
    would not load by its name anyway (the answer is handed to ``ctypes.CDLL``)."""
    import ctypes.util

    find_library = ctypes.util.find_library
    in_cache = getattr(ctypes.util, "_findSoname_ldconfig", None)
    by_ld = getattr(ctypes.util, "_findLib_ld", None)
    soname = getattr(ctypes.util, "_get_soname", None)
    if not sys.platform.startswith("linux") or None in (in_cache, by_ld, soname):
        yield
        return

    def as_the_loader_would(name: str) -> str | None:
        found = in_cache(name)  # type: ignore[misc]
        if found is None and os.environ.get("LD_LIBRARY_PATH"):
            found = soname(by_ld(name))  # type: ignore[misc]
        return found if isinstance(found, str) else None

    ctypes.util.find_library = as_the_loader_would
    try:
        yield
    finally:
        ctypes.util.find_library = find_library


class _PromptAcks(asyncio.Protocol):
    """Stands between an SSH connection and its TCP transport: each time bytes arrive,
    the socket is told to acknowledge them at once (``TCP_QUICKACK``).

    OpenSSH's server leaves Nagle's algorithm on for sessions without a terminal: a small
    reply (a channel opened, an SFTP answer) waits until what it sent before is
    acknowledged, and Linux delays an acknowledgement (up to 40 ms) once a connection
    looks like request and answer. Traced on the server on an idle loopback: the first
    SFTP answer after login, which finding the directory waits for, came 45-55 ms after
    login instead of 6-8 ms. The flag does not stay set, so it is set again at each
    arrival (one system call)."""

    def __init__(self, connection: Any, sock: Any) -> None:
        self._connection = connection
        self._sock = sock

    def data_received(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            self._sock.setsockopt(socket.IPPROTO_TCP, _TCP_QUICKACK, 1)
        self._connection.data_received(data)

    def eof_received(self) -> bool | None:
        return self._connection.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._connection.connection_lost(exc)

    def pause_writing(self) -> None:
        self._connection.pause_writing()

    def resume_writing(self) -> None:
        self._connection.resume_writing()


_TCP_QUICKACK = getattr(socket, "TCP_QUICKACK", None)  # Linux only


def acknowledge_promptly(client: Any) -> bool:
    """Put ``_PromptAcks`` between an asyncssh connection and its TCP socket (Linux);
    whether it was (elsewhere, or not over TCP, nothing changes)."""
    transport = getattr(client, "_transport", None)
    if _TCP_QUICKACK is None or transport is None:
        return False
    sock = transport.get_extra_info("socket")
    if sock is None or sock.type != socket.SOCK_STREAM or sock.family == socket.AF_UNIX:
        return False
    try:
        sock.setsockopt(socket.IPPROTO_TCP, _TCP_QUICKACK, 1)
    except OSError:
        return False
    transport.set_protocol(_PromptAcks(transport.get_protocol(), sock))
    return True


def _encryption_preference() -> list[str]:
    """asyncssh's default ciphers (all standard OpenSSH ones), AES-GCM first: asyncssh
    sets up a new ChaCha20 cipher for every packet, which cost more CPU than the rest of
    reading a small record (AES-GCM keeps one context; every OpenSSH server has it)."""
    from asyncssh.encryption import get_default_encryption_algs

    algs = [alg.decode() for alg in get_default_encryption_algs()]
    gcm = [a for a in algs if a.endswith("-gcm@openssh.com")]
    return gcm + [a for a in algs if a not in gcm]


def describe_fault(exc: BaseException, location: RemoteLocation, options: RemoteOptions) -> str:
    """One line naming the root and what went wrong, in an operator's words."""
    where = location.url
    name = type(exc).__name__
    text = sanitize_line(str(exc)).strip()
    lowered = f"{name} {text}".lower()
    if isinstance(exc, ImportError):
        return missing_package(location, exc)
    if "hostkeynotverifiable" in lowered or "host key is not trusted" in lowered:
        if "mismatch" in lowered or "changed" in lowered:
            return f"{where}: host key mismatch for {location.host}: refused (check known_hosts)"
        return (
            f"{where}: unknown host key for {location.host}: refused (add it to "
            "~/.ssh/known_hosts, or pass --accept-unknown-host)"
        )
    if "permissiondenied" in lowered or ("auth" in lowered and "fail" in lowered):
        return f"{where}: authentication failed for {location.user or 'the current user'}"
    if isinstance(exc, ConnectionRefusedError) or "connection refused" in lowered:
        return f"{where}: connection refused by {location.host}"
    if isinstance(exc, TimeoutError | socket.timeout) or "timeout" in lowered:
        return f"{where}: no answer within {options.timeout:g} s (stalled or unreachable)"
    if isinstance(exc, socket.gaierror):
        return f"{where}: unknown host {location.host}"
    dropped = ("connectionlost", "connection lost", "disconnect", "connection not open")
    if any(word in lowered for word in dropped):
        return f"{where}: connection dropped"
    if isinstance(exc, BrokenPipeError | ConnectionResetError | EOFError):
        return f"{where}: connection dropped"
    if "nocredentials" in lowered or "unable to locate credentials" in lowered:
        return f"{where}: no AWS credentials found (environment, profile or role)"
    if "accessdenied" in lowered or "forbidden" in lowered or "invalidaccesskeyid" in lowered:
        return f"{where}: access denied"
    if "nosuchbucket" in lowered:
        return f"{where}: no such bucket {location.host}"
    if isinstance(exc, FileNotFoundError):
        return f"{where}: no such directory"
    if isinstance(exc, PermissionError):
        return f"{where}: permission denied"
    detail = text or name
    return f"{where}: {detail[:200]}"
