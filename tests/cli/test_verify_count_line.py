"""``verify``'s last line adds up: its failed count is of the files checked, as each root's
is; a path named that could not be read is said apart, after it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.roots_world import copy_host


def test_a_path_that_could_not_be_read_is_not_among_the_files_checked(tmp_path: Path) -> None:
    # It said "2 checked (2 records, 0 WALs), 3 failed, 1 named path could not be read
    # (failed)": more failed than were checked.
    (tmp_path / "notjson.json").write_text("hello", "utf-8")
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "dangling.json").symlink_to("/nonexistent")
    done = cli("verify", "notjson.json", "empty.json", "dangling.json", cwd=tmp_path)
    assert done.returncode == ExitCode.PROBLEMS, done
    assert done.stderr == (
        "intentus-tui: cannot follow dangling.json: the link leads nowhere (its target does not exist)\n"
    )
    assert done.stdout.splitlines()[-1] == (
        "2 checked (2 records, 0 WALs), 2 failed; 1 named path could not be read (failed)"
    )


def test_the_failed_count_is_the_sum_of_each_roots(
    real_world: RealWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Beside roots, the missing path was counted in the total's failed and in no root's.
    monkeypatch.setenv("INTENTUS_TUI_CACHE_DIR", str(tmp_path / "cache"))
    alpha, beta = (copy_host(real_world, tmp_path / name) for name in ("alpha", "beta"))
    missing = tmp_path / "nowhere"
    done = cli("verify", str(alpha.base), str(beta.base), str(missing))
    assert done.returncode == ExitCode.PROBLEMS, done
    last = done.stdout.splitlines()[-1]
    found = re.fullmatch(
        r"(\d+) checked \([^)]*\), (\d+) failed; 1 named path could not be read \(failed\)"
        r"; alpha: (\d+) checked, (\d+) failed; beta: (\d+) checked, (\d+) failed",
        last,
    )
    assert found is not None, last
    checked, failed, alpha_checked, alpha_failed, beta_checked, beta_failed = map(
        int, found.groups()
    )
    assert checked == alpha_checked + beta_checked
    assert failed == alpha_failed + beta_failed


def test_a_file_named_twice_or_beside_its_root_is_checked_once(real_world: RealWorld) -> None:
    # It was checked (and counted) each time: "6 checked (6 records, 0 WALs)" of 4 records.
    records = real_world.records_dir
    one = str(records / f"{real_world.success}.json")
    done = cli("verify", str(records.parent), one, one)
    assert done.stdout.splitlines()[-1].startswith("4 checked (4 records, 0 WALs)"), done.stdout
    assert done.stdout.count(f"{real_world.success}.json ") == 1
