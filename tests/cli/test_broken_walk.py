"""A user's walk through a broken records directory of real intentusnet 1.3.0 records:
what each command says of the entries that are not whole records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld


@pytest.fixture
def broken(real_world: RealWorld, tmp_path: Path) -> Path:
    """Real records beside a dangling link, a link leading outside, a directory named
    ``x.json`` and a truncated copy of the successful record."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    whole = (records / f"{real_world.success}.json").read_bytes()
    (records / f"{real_world.success}.trunc.json").write_bytes(whole[:1500])
    (records / "dangling.json").symlink_to(records / "nowhere.json")
    (records / "outside.json").symlink_to(Path("/etc/passwd"))
    (records / "x.json").mkdir()
    return records


def test_verify_an_empty_directory_beside_other_paths_is_one_failed_line(
    broken: Path, real_world: RealWorld
) -> None:
    """``verify dangling.json RECORD x.json`` stopped at x.json ("nothing to verify", exit
    2): the record named beside it was never verified. Beside other paths, a directory with
    nothing to verify is one line counted as failed, as a missing path is."""
    record = f"{real_world.success}.json"
    done = cli("verify", "dangling.json", record, "x.json", cwd=broken)
    assert done.returncode == ExitCode.PROBLEMS, done
    assert done.stderr.splitlines() == [
        "intentus-tui: cannot follow dangling.json: the link loops or leads nowhere",
        "intentus-tui: nothing to verify in x.json: no records (*.json) or WALs (*.wal)",
    ]
    assert done.stdout.startswith(f"ok    {record}  hash match")
    assert done.stdout.splitlines()[-1] == (
        "1 checked (1 record, 0 WALs), 2 failed, 2 named paths could not be read (failed)"
    )
    doc = json.loads(cli("verify", "--json", record, "x.json", cwd=broken).stdout)
    assert doc["records"] == 1 and doc["failed"] == 1 and doc["files"][0]["ok"] is True
    assert doc["unopened"] == [
        {
            "root": "x.json",
            "problem": "nothing to verify in x.json: no records (*.json) or WALs (*.wal)",
        }
    ]
    # Alone, or beside paths that are not there either, it is still nothing to verify.
    for args in (["x.json"], ["x.json", "nosuch.json"]):
        nothing = cli("verify", *args, cwd=broken)
        assert nothing.returncode == ExitCode.USAGE, nothing
        assert nothing.stdout == ""
