from __future__ import annotations

import pytest

from tests.activegraph_world import NotesWorld, notes_world


@pytest.fixture(scope="package")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))
