"""``D`` with a path typed that holds nothing to compare says what ``intentus-tui diff`` says
of the same path, in the same words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.exit_codes import ExitCode
from tests.tui.app_support import SIZE, settle, wait_for
from tests.tui.test_app_diff_file import make_noting_app, pick, select, world

__all__ = ["world"]  # the fixture, used by name


def cli_says(records: Path, execution_id: str, typed: Path, capsys: Any) -> str:
    """What ``intentus-tui diff ID PATH`` says on stderr, without its ``intentus-tui: ``."""
    capsys.readouterr()
    assert run_cli(["diff", "--dir", str(records), execution_id, str(typed)]) == ExitCode.USAGE
    err = capsys.readouterr().err.strip()
    assert err.startswith("intentus-tui: ") and "\n" not in err
    return err.removeprefix("intentus-tui: ")


@pytest.fixture
def bad_paths(tmp_path: Path) -> dict[str, Path]:
    place = tmp_path / "tb"
    place.mkdir()
    (place / "notjson.json").write_text("hello", "utf-8")
    (place / "empty.json").write_bytes(b"")
    (place / "dangling.json").symlink_to("/nonexistent")
    (place / "directory").mkdir()
    return {
        "not JSON": place / "notjson.json",
        "empty": place / "empty.json",
        "dangling link": place / "dangling.json",
        "missing": place / "missing.json",
        "directory": place / "directory",
    }


async def test_a_bad_path_typed_is_said_as_the_command_line_says_it(
    world: dict[str, Any],
    bad_paths: dict[str, Path],
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before: a link leading nowhere was "no file at this path" (the command line: "cannot
    # follow …: the link loops or leads nowhere"); a file that is not JSON was "Cannot diff:
    # Invalid JSON in File …" and an empty one "Cannot diff: File … is empty" (the command
    # line: "…: Not a readable record: invalid JSON at byte 0 …", "…: File is empty").
    said = {
        case: cli_says(world["records"], world["a"], path, capsys)
        for case, path in bad_paths.items()
    }
    # A file the picker chose is named by its name, as the comparison's titles name it: the
    # command line given the file by its name in its directory.
    monkeypatch.chdir(bad_paths["empty"].parent)
    said_named = {
        case: cli_says(world["records"], world["a"], Path(path.name), capsys)
        for case, path in bad_paths.items()
    }
    assert said["dangling link"] == (
        f"cannot follow {bad_paths['dangling link']}: "
        "the link leads nowhere (its target does not exist)"
    )
    app = make_noting_app(world["records"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(app, pilot, world["a"])
        for case, path in bad_paths.items():
            before = len(app.notes)
            picker = await pick(app, pilot, str(path))
            await wait_for(pilot, lambda b=before: len(app.notes) > b, f"a note for {case}")
            severity, note = app.notes[-1]
            # Nothing there, or no file: refused in the picker, its status line saying why.
            assert (app.screen is picker) == (case in ("dangling link", "missing", "directory"))
            if app.screen is picker:
                assert severity == "warning"
                assert note == f"Cannot compare: {said[case]}", case
                status = str(picker.query_one("#picker-status").render())
                assert status == said[case], case
                await pilot.press("escape")
            else:  # chosen, then the file could not be read
                assert (severity, note) == ("error", f"Cannot diff: {said_named[case]}"), case
            await settle(pilot)
            assert app.side_pane.diff_pane.outcome is None
        assert app.is_running and app._exception is None
