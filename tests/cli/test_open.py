"""``intentus-tui --demo``: the demo world is built once and kept between runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from intentus_tui.cli.open import resolve_target
from tests.cli.support import cli


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


@pytest.mark.parametrize("roots", [1, 2])
def test_the_debugger_without_a_terminal_is_one_line_not_a_screen_drawn_into_a_pipe(
    tmp_path: Path, roots: int
) -> None:
    """In a pipe or a cron job it drew its screen into the pipe and ran until killed."""
    from tests.cli.support import cli
    from tests.tui.app_support import write_world

    given = []
    for n in range(roots):
        write_world(tmp_path / f"r{n}" / ".intentusnet" / "records")
        given.append(str(tmp_path / f"r{n}"))
    done = cli(*given, cwd=tmp_path, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "intentus-tui: the debugger needs a terminal (standard input and output are not "
        "both one); for scripts: intentus-tui inspect --list [ROOT ...]\n"
    )


@pytest.mark.parametrize(("typed", "meant"), [("veriyf", "verify"), ("inspec", "inspect")])
def test_a_mistyped_command_is_said_and_opens_nothing(
    tmp_path: Path, typed: str, meant: str
) -> None:
    """``intentus-tui veriyf DIR`` said no root 'veriyf' exists and opened DIR."""
    from tests.cli.support import cli
    from tests.tui.app_support import write_world

    write_world(tmp_path / ".intentusnet" / "records")
    done = cli(typed, str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"intentus-tui: no such command: {typed!r} (did you mean {meant!r}? see --help)\n"
    )
    # A directory of that name is a root, as before.
    (tmp_path / typed).mkdir()
    assert "no such command" not in cli(typed, cwd=tmp_path).stderr


def test_the_help_says_the_debugger_watches_its_roots_live() -> None:
    """A user walk found live watching only by trying: the help said nothing of it, and
    --poll (remote roots only) was the one option about it."""
    text = " ".join(cli("--help").stdout.split())
    assert "The debugger watches them live: records written, changed or removed" in text
    assert "p pauses and resumes watching" in text
