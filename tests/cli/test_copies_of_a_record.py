"""An execution recorded in more than one file (a copy of its record under another name,
a cut-short ``X.trunc.json``), in one root or across several: every file is named."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from rich.cells import cell_len

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli, run_in_pty
from tests.intentusnet_world import RealWorld
from tests.real_ids import copy_real_world, save_as


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


def test_an_id_read_from_its_own_file_names_the_copies_the_index_knows(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """``inspect X`` read ``X.json`` and said nothing of ``copy.json`` beside it, which
    records the same execution (the listing shows both rows): the note names it, from the
    index's cache alone (before the directory was listed, nothing is known: no note)."""
    records = copy_real_world(real_world, tmp_path)
    x = real_world.fallback
    shutil.copy(records / f"{x}.json", records / "copy.json")
    env = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}
    note = (
        f"intentus-tui: note: read {x}.json; execution '{x}' is also recorded in copy.json, "
        "as the index last listed the directory (name the file to read one: its path, or "
        "its name with --dir)"
    )
    before = cli("inspect", x, cwd=tmp_path, env=env)
    assert before.returncode == 0 and before.stderr == "", before
    assert cli("inspect", "--list", cwd=tmp_path, env=env).returncode == 0
    for command in (("inspect", x), ("inspect", x[:8]), ("replay", x[:8], "--json")):
        shown = cli(*command, cwd=tmp_path, env=env)
        assert shown.returncode == 0, shown.stderr
        assert shown.stderr.splitlines() == [note], command
    assert before.stdout == cli("inspect", x, cwd=tmp_path, env=env).stdout  # X.json's
    both = cli("diff", x, x[:8], cwd=tmp_path, env=env)  # one file, named twice: said once
    assert both.returncode == 0 and both.stderr.splitlines() == [note], both.stderr
    assert cli("inspect", x, "--no-cache", cwd=tmp_path, env=env).stderr == ""
    # With several roots, the copy is named as LABEL:FILE.
    other = tmp_path / "other"
    copy_real_world(real_world, other)
    listed = cli("inspect", "--list", ".", "other", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    label = tmp_path.name
    labelled = cli(
        "inspect", f"{label}:{x[:8]}", "--dir", ".", "--dir", "other", cwd=tmp_path, env=env
    )
    assert labelled.returncode == 0, labelled.stderr
    assert (
        f"note: read {label}:{x}.json; execution '{x}' is also recorded in {label}:copy.json"
        in (labelled.stderr)
    )
    # A copy gone since the listing is not named.
    (records / "copy.json").unlink()
    assert cli("inspect", x, cwd=tmp_path, env=env).stderr == ""


def test_a_listing_with_copies_and_long_ids_fits_80_columns(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """EXECUTION, FILE, OUTCOME, INTEGRITY and REPLAY, all that is left at 80 columns,
    were 81 cells wide or more (a FILE column, an id no UUID, "unknown (untrusted)",
    "unverifiable"): the last line said "still wider than 80 columns". The file names are
    cut narrower, in their middle, and still tell the copies apart."""
    records = _broken(real_world, tmp_path / "broken")
    save_as(records, real_world.success, "incident-20260105-replayed")
    for roots in (["broken"], ["broken", "broken2"]):
        if len(roots) > 1:
            shutil.copytree(tmp_path / "broken", tmp_path / "broken2")
        out = run_in_pty("inspect", "--list", *roots, cwd=tmp_path, columns=80)
        lines = out.decode().replace("\r\n", "\n").splitlines()
        assert all(cell_len(line) <= 80 for line in lines), lines
        end = next(i for i, line in enumerate(lines) if line.startswith("("))
        header = next(line for line in lines if line.startswith("EXECUTION"))
        assert header.split() == ["EXECUTION", "FILE", "OUTCOME", "INTEGRITY", "REPLAY"]
        assert " ".join(lines[end:]).startswith("(fitted to 80 columns:"), lines[end:]
        files = [line.split()[1] for line in lines if line.startswith(real_world.fallback[:8])]
        assert len(files) == 3 * len(roots) and len(set(files)) == 3, files
        assert any(name.endswith("nc.json") and "…" in name for name in files), files
        assert "copy.json" in files
