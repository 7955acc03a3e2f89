from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.remote.sshd import SshServer, make_server


@pytest.fixture
def sshd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshServer]:
    """A running sshd whose host key the client trusts; HOME is the client's."""
    server = make_server(tmp_path)
    monkeypatch.setenv("HOME", str(server.home))
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    server.trust()
    server.start()
    try:
        yield server
    finally:
        server.stop()
