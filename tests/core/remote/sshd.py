"""A real OpenSSH server for the tests: ``/usr/sbin/sshd`` on 127.0.0.1, on a free port,
with its own temporary host key, authorized key and sshd_config, run as the current user.
The client side is a temporary HOME whose ``.ssh`` holds the client key and (unless a
test wants otherwise) a known_hosts entry for the server: found the way ``ssh`` finds
them."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.system_packages import require_system_package

SSHD = Path("/usr/sbin/sshd")
SKIP_REASON = (
    "needs a real OpenSSH server (/usr/sbin/sshd): install it with "
    "`sudo apt-get install openssh-server` (CI installs it in .ci/run)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class SshServer:
    port: int
    home: Path  # the client's HOME (its .ssh: id_ed25519, known_hosts)
    served: Path  # a directory the server can read: where tests put records
    host_public_key: str
    config: Path
    process: subprocess.Popen[bytes] | None = None

    def url(self, path: Path, port: int | None = None) -> str:
        return f"ssh://{os.environ.get('USER') or _user()}@127.0.0.1:{port or self.port}{path}"

    def known_hosts_line(self, port: int | None = None) -> str:
        return f"[127.0.0.1]:{port or self.port} {self.host_public_key}"

    def trust(self, port: int | None = None) -> None:
        known = self.home / ".ssh" / "known_hosts"
        with known.open("a") as out:
            out.write(self.known_hosts_line(port) + "\n")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(SSHD), "-D", "-e", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"sshd did not start: {err}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not listen within 10 s")

    def stop(self) -> None:
        """Kill the server and every connection it serves (their processes call setsid)."""
        if self.process is not None:
            for pid in [*_descendants(self.process.pid), self.process.pid]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.wait(5)
        self.process = None


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _user() -> str:
    import pwd

    return pwd.getpwuid(os.getuid()).pw_name


def make_server(base: Path, extra_config: Sequence[str] = ()) -> SshServer:
    """A server (not yet started) under ``base``; ``extra_config``: more sshd_config lines."""
    require_system_package(SSHD.is_file() and shutil.which("ssh-keygen") is not None, SKIP_REASON)
    pytest.importorskip("sshfs", reason="needs sshfs: pip install -e '.[test]'")
    etc = base / "sshd"
    etc.mkdir()
    home = base / "home"
    (home / ".ssh").mkdir(parents=True)
    os.chmod(home / ".ssh", 0o700)
    for key_file, comment in (
        (etc / "host_ed25519", "host"),
        (home / ".ssh" / "id_ed25519", "client"),
    ):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(key_file)],
            check=True,
        )
    authorized = etc / "authorized_keys"
    shutil.copy(home / ".ssh" / "id_ed25519.pub", authorized)
    port = free_port()
    config = etc / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {etc / 'host_ed25519'}",
                f"PidFile {etc / 'sshd.pid'}",
                f"AuthorizedKeysFile {authorized}",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes",
                "PermitRootLogin yes",  # the tests run as whoever runs them
                "UsePAM no",
                "StrictModes no",
                "Subsystem sftp internal-sftp",
                "MaxSessions 32",
                "MaxStartups 64",
                "LogLevel ERROR",
                *extra_config,
                "",
            ]
        )
    )
    host_public = (etc / "host_ed25519.pub").read_text().split()
    served = base / "served"
    served.mkdir()
    server = SshServer(port, home, served, f"{host_public[0]} {host_public[1]}", config)
    os.makedirs("/run/sshd", exist_ok=True) if os.getuid() == 0 else None
    return server


class StallingProxy:
    """A TCP proxy on 127.0.0.1 in front of the server that can stop forwarding (both
    ways, connections left open): a stalled link, as a dead network path looks."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.stalled = threading.Event()
        self._closing = threading.Event()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                while self.stalled.is_set() and not self._closing.is_set():
                    time.sleep(0.05)  # hold the bytes: nothing goes through
                if self._closing.is_set():
                    break
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self._closing.set()
        self.listener.close()
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.close()


@pytest.fixture
def sshd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshServer]:
    """A running sshd whose host key the client trusts; HOME is the client's."""
    with serving(tmp_path, monkeypatch) as server:
        yield server


@contextlib.contextmanager
def serving(
    base: Path, monkeypatch: pytest.MonkeyPatch, extra_config: Sequence[str] = ()
) -> Iterator[SshServer]:
    """A running sshd (its config with ``extra_config`` added) whose host key the client
    trusts; HOME is the client's, the cache under ``base``."""
    server = make_server(base, extra_config)
    monkeypatch.setenv("HOME", str(server.home))
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(base / "cache"))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    server.trust()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        # Close this test's SSH connections now (their finalizers), not at the end of
        # the session, where the event loop's thread would run beside pytest's imports.
        gc.collect()
