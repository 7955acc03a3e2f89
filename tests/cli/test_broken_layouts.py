"""A directory whose IntentusNet layout is broken (its .intentusnet or records there but
not a directory) says so in one line, exit 2; it read as a directory holding no record."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.factories import make_record, write_record


def _file_for_base(project: Path) -> str:
    (project / ".intentusnet").write_text("")
    return f"{project / '.intentusnet'} is a file, not a directory"


def _fifo_for_records(project: Path) -> str:
    (project / ".intentusnet").mkdir()
    os.mkfifo(project / ".intentusnet" / "records")
    return f"{project / '.intentusnet' / 'records'} is a FIFO, not a directory"


def _looping_records(project: Path) -> str:
    (project / ".intentusnet").mkdir()
    records = project / ".intentusnet" / "records"
    records.symlink_to(records)
    return f"{records} is a link that loops or leads nowhere, not a directory"


@pytest.mark.parametrize("make", [_file_for_base, _fifo_for_records, _looping_records])
# the listing, the debugger, verify (which said "nothing to verify")
@pytest.mark.parametrize("command", [("inspect", "--list"), (), ("verify",)])
def test_a_broken_layout_is_one_line_naming_what_is_wrong(
    tmp_path: Path, make: object, command: tuple[str, ...]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    says = make(project)  # type: ignore[operator]
    result = cli(*command, str(project))
    assert result.returncode == ExitCode.USAGE, result
    assert result.stderr == f"intentus-tui: {says}: no record can be read there\n"
    assert result.stdout == ""


def test_the_intentusnet_directory_named_itself_with_its_records_a_file(tmp_path: Path) -> None:
    # It listed "(no records in …/.intentusnet)", exit 0.
    base = tmp_path / ".intentusnet"
    base.mkdir()
    (base / "records").write_text("")
    for command in (("inspect", "--list"), ("verify",)):
        result = cli(*command, str(base))
        assert result.returncode == ExitCode.USAGE, result
        assert result.stderr == (
            f"intentus-tui: {base / 'records'} is a file, not a directory: no record can be "
            "read there\n"
        )


def test_a_root_that_is_a_looping_link_says_so(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for command in (("inspect", "--list"), ()):
        result = cli(*command, str(tmp_path / "a"))
        assert result.returncode == ExitCode.USAGE, result
        assert "loops" in result.stderr and "no such" not in result.stderr, result.stderr


def test_a_directory_of_records_with_a_stray_entry_so_named_is_listed(tmp_path: Path) -> None:
    write_record(tmp_path, make_record(execution_id="exec-0001"))
    (tmp_path / ".intentusnet").write_text("")  # not a layout: the records are here
    result = cli("inspect", "--list", str(tmp_path))
    assert result.returncode == ExitCode.OK, result
    assert "exec-0001" in result.stdout
