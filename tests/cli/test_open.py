"""``intentus-tui --demo``: the demo world is built once and kept between runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.cli.open import resolve_target


def test_the_demo_world_is_kept_between_runs_unless_a_fresh_one_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    records = resolve_target(None, demo=True).records_dir
    built = sorted(p.name for p in records.glob("*.json"))
    assert len(built) >= 30
    # What the user did in it (here: a record removed, another changed) stays.
    (records / built[0]).unlink()
    changed = records / built[1]
    changed.write_bytes(changed.read_bytes().replace(b'"replayable": true', b'"replayable": false'))
    kept = changed.read_bytes()
    assert resolve_target(None, demo=True).records_dir == records
    assert not (records / built[0]).exists() and changed.read_bytes() == kept
    # --fresh-demo builds it again
    assert resolve_target(None, fresh=True).records_dir == records
    assert sorted(p.name for p in records.glob("*.json")) == built
    assert (records / built[0]).exists()


def test_demo_and_a_directory_together_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from intentus_tui.cli.open import OpenError

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(OpenError, match="not both"):
        resolve_target(str(tmp_path), fresh=True)


def test_a_debugger_that_ended_on_an_error_exits_non_zero() -> None:
    """It exited 0 after Textual printed the traceback: a script saw nothing wrong."""
    from typing import Any

    from textual.app import App

    from intentus_tui.cli.open import ran

    class Headless(App[None]):
        def run(self, *args: Any, **kwargs: Any) -> None:
            return super().run(headless=True)

    class Failing(Headless):
        def on_mount(self) -> None:
            raise RuntimeError("a bug")

    class Quitting(Headless):
        def on_mount(self) -> None:
            self.exit()

    assert ran(Failing()) == 1
    assert ran(Quitting()) == 0
