"""An execution recorded in more than one file (a copy of its record under another name,
a cut-short ``X.trunc.json``), in one root or across several: every file is named."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world


def _one_error_line(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == ExitCode.USAGE, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def _broken(real_world: RealWorld, base: Path) -> Path:
    """A root whose record of the fallback execution has a cut-short copy and a copy named
    otherwise beside it; returns its records directory."""
    records = copy_real_world(real_world, base)
    original = records / f"{real_world.fallback}.json"
    data = original.read_bytes()
    (records / f"{real_world.fallback}.trunc.json").write_bytes(data[: len(data) // 2])
    shutil.copy(original, records / "copy.json")
    return records


def test_a_prefix_held_in_several_files_of_one_root_and_in_another_names_every_file(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """Only the root with several files was named: ``real:X.json`` was left out, as if
    ``broken:FILE`` were the only choices."""
    copy_real_world(real_world, tmp_path / "real")
    _broken(real_world, tmp_path / "broken")
    x = real_world.fallback
    line = _one_error_line(
        cli(
            "inspect",
            x[:4],
            "--dir",
            "real/.intentusnet",
            "--dir",
            "broken/.intentusnet",
            cwd=tmp_path,
        )
    )
    # Each root's files in name order, as the listing has them.
    broken = [f"broken:{name}" for name in sorted([f"{x}.json", f"{x}.trunc.json", "copy.json"])]
    assert line == (
        f"intentus-tui: execution '{x}' is recorded in 4 files of 2 roots: real:{x}.json, "
        f"{', '.join(broken)} (name the file instead: LABEL:FILE, as {broken[-1]})"
    )
    # The roots in the order given; a name given is still what it names.
    reversed_line = _one_error_line(
        cli("inspect", x[:4], "--dir", "broken", "--dir", "real", cwd=tmp_path)
    )
    assert f"2 roots: {', '.join(broken)}, real:{x}.json (" in reversed_line
    shown = cli("inspect", f"real:{x[:4]}", "--dir", "broken", "--dir", "real", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1].endswith(f"/real/.intentusnet/records/{x}.json")
