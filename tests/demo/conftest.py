"""The demo world the demo tests read (built once: its files are only read)."""

from __future__ import annotations

import pytest

from intentus_tui.demo.writer import DemoManifest, build_demo_world


@pytest.fixture(scope="package")
def world(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return build_demo_world(tmp_path_factory.mktemp("demo"), count=40, seed=7)
