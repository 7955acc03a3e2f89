"""``snapshot`` of a file that holds nothing it can pin is bad data: one line and exit 1,
as ``export`` skips such a file; exit 2 is for usage errors (a missing path, an unknown id)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.hostile.corpus import deep_array, deep_record
from tests.intentusnet_world import RealWorld


def test_a_record_too_deep_to_read_or_to_pin_exits_1_in_one_line(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A record whose payload is 990 arrays deep (read, but too deep to write again as a
    snapshot) exited 2, "snapshot is nested too deeply to write as JSON" without the file's
    name; one 100,000 deep, and a file that is no record, exited 2 too."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    (records / "deep-990.json").write_bytes(deep_record(990, "deep-990"))
    (records / "deep-1.json").write_bytes(deep_record(100_000, "deep-1"))
    (records / "deep-array.json").write_bytes(deep_array(100_000))
    (records / "list.json").write_text("[1, 2]")
    out = tmp_path / "out"
    out.mkdir()
    says = {
        "deep-990": "deep-990: cannot make a snapshot: it is nested too deeply to write as JSON",
        "deep-1": "deep-1: JSON nested too deeply to parse safely",
        "deep-array.json": "deep-array.json: JSON nested too deeply to parse safely",
        "list.json": "list.json: Valid JSON, but an array, not an execution record",
    }
    for name, line in says.items():
        for place in ("-", str(out / "pin.snapshot.json")):
            run = cli("snapshot", name, "--dir", str(records), "-o", place)
            assert (run.returncode, run.stdout) == (ExitCode.PROBLEMS, ""), (name, run.stderr)
            assert run.stderr.startswith(f"intentus-tui: {line}") and run.stderr.count("\n") == 1
        doc = json.loads(cli("snapshot", name, "--dir", str(records), "--json").stdout)
        assert doc["exit_code"] == ExitCode.PROBLEMS and doc["error"].startswith(line)
    assert list(out.iterdir()) == [] and not list(tmp_path.glob("*.snapshot.json"))
    # A real record still pins, and a usage error is still one.
    good = cli("snapshot", real_world.success, "--dir", str(records), "-o", "-")
    assert good.returncode == ExitCode.OK and json.loads(good.stdout)["inputHash"]
    unknown = cli("snapshot", "nosuchid", "--dir", str(records), "-o", "-")
    assert unknown.returncode == ExitCode.USAGE
