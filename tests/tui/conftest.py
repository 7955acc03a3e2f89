from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.app_support import write_world


@pytest.fixture
def world(records_dir: Path) -> dict[str, str]:
    """Six executions covering every group, in ``records_dir`` (``write_world``): name -> id."""
    return write_world(records_dir)
