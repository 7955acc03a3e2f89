"""``bundle`` of an execution recorded in more than one file (a copy of its record under
another name): the files left out are named, and how to bundle them too."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

from tests.cli.support import cli
from tests.core.bundle.support import BundleWorld


def _members(bundle: Path) -> list[str]:
    with tarfile.open(bundle) as tar:
        return sorted(n for n in tar.getnames() if n.startswith("records/"))


def test_a_copy_left_out_of_the_bundle_is_named(
    world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """The bundle held only ``X.json`` and said nothing of ``copy.json``, which records the
    same execution: the operator took the bundle for all the evidence there was."""
    x = world.success
    shutil.copy(world.records / f"{x}.json", world.records / "copy.json")
    output = tmp_path / "x.tar.gz"
    run = cli("bundle", x[:8], "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0, run.stderr
    assert _members(output) == [f"records/{x}.json"]
    assert run.stderr == (
        f"intentus-tui: note: not bundled: copy.json, which also records execution '{x}' "
        f"(name each file to bundle it too, as: bundle {x[:8]} copy.json)\n"
    )
    both = cli("bundle", x[:8], "copy.json", "--dir", str(world.base), "-o", str(output))
    assert both.returncode == 0, both.stderr
    assert both.stderr == ""
    assert _members(output) == sorted(["records/copy.json", f"records/{x}.json"])


def test_an_execution_in_one_file_gets_no_note(
    world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    output = tmp_path / "x.tar.gz"
    run = cli("bundle", world.success[:8], "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0 and run.stderr == "", run.stderr


def test_a_file_holding_no_whole_record_is_noted_as_packed_as_it_is(
    world: BundleWorld, tmp_path: Path, private_tmp: Path
) -> None:
    """Bundling a binary file and an empty one said "2 executions, 2 records" and nothing
    else: each is noted with what its verdict says of it. IntentusNet 1.3.0's own cut of an
    error response keeps its outcome (failed): no note."""
    (world.records / "binary.json").write_bytes(b"\x00\xff\xfebinary")
    (world.records / "empty.json").write_bytes(b"")
    output = tmp_path / "x.tar.gz"
    ids = ("binary", "empty", world.truncated[:8])
    run = cli("bundle", *ids, "--dir", str(world.base), "-o", str(output))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [
        "intentus-tui: note: 'binary' packed as it is, outcome unknown: the file is not UTF-8 "
        "text: invalid UTF-8 at byte 1",
        "intentus-tui: note: 'empty' packed as it is, outcome unknown: the file is empty",
    ]
    assert run.stdout.endswith(": 3 executions, 3 records, 0 WALs, 0 snapshots\n"), run.stdout
