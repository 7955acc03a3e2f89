"""The program freezes what its command imported (no collection walks it again, the one
at the interpreter's exit included); a command run inside another program (a test's
runner, a script calling ``main``) freezes nothing, or that program's garbage not yet
collected would never be freed."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from intentus_tui.cli import main
from tests.factories import make_record, write_record

_COUNT_AT_EXIT = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print(gc.get_freeze_count(), file=sys.stderr))\n"
    "from intentus_tui.cli import main\n"
    "sys.argv = ['intentus-tui', *sys.argv[1:]]\n"
    "main()\n"
)


def test_the_program_freezes_what_its_command_imported(tmp_path: Path) -> None:
    write_record(tmp_path / "records", make_record())
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_AT_EXIT, "inspect", "--list", "--json", str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"executions"' in done.stdout
    assert int(done.stderr.strip().splitlines()[-1]) > 10_000  # the imported modules' objects


def test_a_command_run_inside_another_program_freezes_nothing(tmp_path: Path) -> None:
    write_record(tmp_path / "records", make_record())
    before = gc.get_freeze_count()
    result = CliRunner().invoke(
        main, ["inspect", "--list", "--json", "--no-cache", str(tmp_path)], catch_exceptions=False
    )
    assert result.exit_code == 0 and '"executions"' in result.stdout
    assert gc.get_freeze_count() <= before  # frozen objects may have been freed meanwhile
