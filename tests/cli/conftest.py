from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.core.bundle.support import BundleWorld, build_bundle_world
from tests.intentusnet_world import RealWorld


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary directory the command line extracts bundles into (tests check it is
    left empty)."""
    path = tmp_path / "tmp"
    path.mkdir()
    monkeypatch.setenv("TMPDIR", str(path))
    return path


@pytest.fixture
def world(real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BundleWorld:
    """An incident project of real 1.3.0 records and logs (``build_bundle_world``); a test
    module's own ``world`` fixture takes its place there."""
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))  # not the user's
    return build_bundle_world(real_world, tmp_path / "incident")


@pytest.fixture
def bundle(world: BundleWorld, tmp_path: Path) -> Path:
    """Four of ``world``'s executions bundled by the ``bundle`` command."""
    output = tmp_path / "out" / "evidence.tar.gz"
    output.parent.mkdir()
    ids = [world.success, world.fallback, world.invalidated, world.wal_only]
    run = cli("bundle", *ids, "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0, run.stderr
    return output
