from __future__ import annotations

from pathlib import Path

import pytest

from tests.intentusnet_world import RealWorld, build_real_world

# The ``sshd`` fixture: a real OpenSSH server for the remote-root tests.
pytest_plugins = ["tests.core.remote.sshd"]


@pytest.fixture(scope="session")
def real_world(tmp_path_factory: pytest.TempPathFactory) -> RealWorld:
    """Records written by the real intentusnet 1.3.0 (read-only: copy before changing)."""
    return build_real_world(tmp_path_factory.mktemp("real"))


@pytest.fixture
def records_dir(tmp_path: Path) -> Path:
    path = tmp_path / "records"
    path.mkdir()
    return path


@pytest.fixture(autouse=True)
def _settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the user's remembered settings."""
    path = tmp_path / "settings.json"
    monkeypatch.setenv("INTENTUS_TUI_SETTINGS", str(path))
    return path


@pytest.fixture(autouse=True)
def _compare_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the user's ignore rules: the defaults, unless a test writes this file."""
    path = tmp_path / "compare.toml"
    monkeypatch.setenv("INTENTUS_TUI_COMPARE", str(path))
    return path
