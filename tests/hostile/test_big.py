"""Enormous inputs: a 200 MB record, nesting 100,000 deep, 10,000-digit integers.

Each is classified right, without more than ~1 GB of extra memory, and a listing reads a
bounded part of a huge file. The 200 MB cases run in a child process, so peak RSS and bytes
read measure that work and nothing else. How long each takes is measured, as a ratio to
orjson parsing the same input, by ``bench/bench_hostile.py``: wall-clock limits in the
suite failed on a busy 2-core machine. ``deadline`` only stops a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from intentus_tui.cli import main
from intentus_tui.core.records.load import (
    HUGE_FILE_BYTES,
    LoadStatus,
    load_record_bytes,
    load_record_file,
)
from intentus_tui.core.wal.read import read_wal
from tests.factories import make_record
from tests.hostile.corpus import (
    BIG_DIGITS,
    DEEP,
    HUGE_BYTES,
    big_int_record,
    deep_array,
    deep_record,
    dump_json,
    write_huge_record,
)
from tests.hostile.harness import deadline, exercise

ROOT = Path(__file__).parents[2]
GB = 1024**3

# Runs in a child: load, summarize, verify, detail of one file; prints peak RSS growth:
# the child's own (VmHWM; ru_maxrss starts at the parent's, pytest's, across the exec, and
# work below that read as none).
CHILD = r"""
import json, sys
from pathlib import Path
from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.index.summarize import summarize_path
def peak():
    with open("/proc/self/status") as status:
        return int(next(l for l in status if l.startswith("VmHWM:")).split()[1]) * 1024
path = Path(sys.argv[1])
base = peak()
loaded = load_record_file(path)
status = loaded.status.value
del loaded
row = summarize_path(path)
detail = load_detail(path)
doc = detail_to_json(detail)
print(json.dumps({
    "status": status,
    "row_status": row.load_status.value,
    "hash": doc["hash"]["status"] if doc["hash"] else None,
    "extra_bytes": peak() - base,
}))
"""

# Runs the command line in a child and reports on stderr how many bytes it read (all
# files, its own modules included), from Linux's /proc/self/io.
COUNT_READS = r"""
import atexit, runpy, sys
def report():
    with open("/proc/self/io") as io:
        fields = dict(line.split(": ") for line in io.read().splitlines())
    sys.stderr.write(f"\nbytes read: {fields['rchar']}\n")
atexit.register(report)
sys.argv = ["intentus-tui", *sys.argv[1:]]
runpy.run_module("intentus_tui.cli", run_name="__main__")
"""


def _child(*args: str, cache: Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "intentus_tui.cli"]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "INTENTUS_TUI_CACHE_DIR": str(cache),
        },
    )


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("huge") / "records"
    directory.mkdir()
    path = write_huge_record(directory / "huge-1.json")
    assert path.stat().st_size == HUGE_BYTES
    return path


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM in /proc")
def test_a_200_mb_record_is_read_verified_and_shown_in_bounded_memory(
    huge: Path, tmp_path: Path
) -> None:
    proc = _child(str(huge), code=CHILD, cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["status"] == LoadStatus.OK.value
    assert report["hash"] == "match"
    assert report["extra_bytes"] < GB, report


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts reads in /proc")
def test_the_cli_lists_and_verifies_a_200_mb_record(huge: Path, tmp_path: Path) -> None:
    listing = _child(
        "inspect", "--list", str(huge.parent), "--json", cache=tmp_path, code=COUNT_READS
    )
    assert listing.returncode == 0, listing.stderr
    (row,) = json.loads(listing.stdout)["executions"]
    assert row["file"] == "huge-1.json" and row["execution_id"] == "huge-1"
    bytes_read = int(listing.stderr.rsplit("bytes read: ", 1)[1])
    assert bytes_read < HUGE_BYTES // 10  # listed from its head (4 MB read), not parsed whole
    verify = _child("verify", str(huge), "--json", cache=tmp_path)
    assert verify.returncode == 0, verify.stderr
    assert json.loads(verify.stdout)["files"][0]["hash"]["status"] == "match"


def test_nesting_100000_deep_is_classified_quickly() -> None:
    for data in (deep_array(DEEP), b'{"a":' * DEEP + b"1" + b"}" * DEEP, deep_record(DEEP, "d")):
        with deadline(10, "deep"):
            result = load_record_bytes(Path("deep.json"), data)
            exercise(result)
        assert result.status is LoadStatus.TOO_DEEP
        for cut in (len(data) // 2, len(data) - 1):  # and damaged: the salvage walk too
            with deadline(10, "deep, cut"):
                exercise(load_record_bytes(Path("deep.json"), data[:cut]))


# A regression would spin in ijson's C code, which neither ``deadline``'s alarm nor the
# default (signal) timeout interrupts: the thread method ends the worker, failing the test.
@pytest.mark.timeout(120, method="thread")
def test_a_huge_file_nested_deep_at_its_start_is_listed_and_exported(tmp_path: Path) -> None:
    """A file over the size read whole, its envelope nested 400,000 deep in its first MB:
    listed from its head, and skipped by ``export`` with its reason. Its head's scan had been
    quadratic in the nesting: over a minute for this one file, the listing stuck on it."""
    records = tmp_path / "records"
    records.mkdir()
    huge = records / "deep-huge.json"
    huge.write_bytes(
        b'{"header": {"executionId": "deep-huge"}, "envelope": {"intent": {"name": "n", "x": '
        + b'{"a":' * 400_000
    )
    os.truncate(huge, HUGE_FILE_BYTES + 1)
    (records / "deep-small.json").write_bytes(b'{"a":' * 400_000 + b"1" + b"}" * 400_000)
    runner = CliRunner()
    with deadline(30, "inspect --list"):
        listing = runner.invoke(main, ["inspect", "--list", "--json", "--no-cache", str(records)])
    rows = {row["file"]: row for row in json.loads(listing.stdout)["executions"]}
    assert rows["deep-huge.json"]["execution_id"] == "deep-huge"
    assert rows["deep-huge.json"]["intent"] == "n"
    with deadline(30, "export"):
        export = runner.invoke(main, ["export", "--format", "json", str(records), "-o", "-"])
    assert export.exit_code == 1 and export.stdout == ""
    skipped = [line for line in export.stderr.splitlines() if ": skipped " in line]
    assert len(skipped) == 2
    assert all(line.endswith("JSON nested too deeply to parse safely") for line in skipped)


def test_nesting_100000_deep_in_a_wal_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.wal"
    path.write_bytes(deep_array(DEEP) + b"\n" + b'{"a":' * DEEP + b"}" * DEEP + b"\n")
    with deadline(10, "deep WAL"):
        log = read_wal(path)
    assert [i.kind for i in log.issues] == ["not_json", "torn_last_line"]


def test_10000_digit_integers_are_classified_quickly(tmp_path: Path) -> None:
    digits = b"9" * BIG_DIGITS
    cases = [
        big_int_record("b"),
        digits,
        b"-" + digits,
        b"0." + digits,  # a float with 10,000 digits parses (to 1.0)
        b"1e" + digits,  # an exponent that overflows: inf
        b'{"header": {"executionId": "b"}, "events": [{"seq": ' + digits + b"}]}",
    ]
    for data in cases:
        with deadline(10, "big int"):
            result = load_record_bytes(Path("b.json"), data)
            exercise(result)
        assert result.status in (LoadStatus.NOT_JSON, LoadStatus.NOT_RECORD, LoadStatus.SALVAGED)
    path = tmp_path / "b.json"
    path.write_bytes(big_int_record("b"))
    result = load_record_file(path)
    assert result.status is LoadStatus.SALVAGED and result.recovered == ("header",)


def test_a_diff_of_records_nested_deep_with_many_differences(tmp_path: Path) -> None:
    """Two 5 KB records, their payloads 900 objects deep (under the parsers' limits) and
    500 numbers apart at the bottom: every difference is listed. Hiding some by the
    ignore rules wrote each difference's path again for each of its ancestors: quadratic in
    the depth, minutes for these two files."""
    paths = []
    for name, number in (("a", b"1"), ("b", b"2")):
        record = make_record(execution_id=name)
        record["envelope"]["payload"] = "__DEEP__"
        bottom = b"[" + b",".join([number] * 500) + b"]"
        deep = b'{"a":' * 900 + bottom + b"}" * 900
        path = tmp_path / f"{name}.json"
        path.write_bytes(dump_json(record).replace(b'"__DEEP__"', deep))
        paths.append(str(path))
    with deadline(30, "diff"):
        result = CliRunner().invoke(main, ["diff", "--json", *paths])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    deep_entries = [e for e in doc["entries"] if e["path"][:3] == ["envelope", "payload", "a"]]
    assert len(deep_entries) == 500


def test_values_nested_deep_are_written_without_blowing_up(tmp_path: Path) -> None:
    """A 95 KB record whose 50 events each nest 900 arrays deep (under the parsers'
    limits): its snapshot and ``diff --json`` stay about its size and read back as the same
    JSON. Written with indent=2, each line indented to its depth, they had been 860 times
    its size (a snapshot of 82 MB) and quadratic in the depth to write."""
    record = make_record(execution_id="deep-events")
    first = record["events"][0]
    record["events"] = [{**first, "seq": i, "payload": "__DEEP__"} for i in range(1, 51)]
    path = tmp_path / "deep-events.json"
    data = dump_json(record).replace(b'"__DEEP__"', deep_array(900))
    path.write_bytes(data)
    good = tmp_path / "good.json"
    good.write_bytes(dump_json(make_record(execution_id="good")))
    runner = CliRunner()
    snapshot = tmp_path / "out" / "deep.snapshot.json"
    snapshot.parent.mkdir()
    with deadline(30, "snapshot"):
        made = runner.invoke(main, ["snapshot", str(path), "-o", str(snapshot)])
    assert made.exit_code == 0, made.output
    assert snapshot.stat().st_size < 10 * len(data)
    saved = json.loads(snapshot.read_bytes())
    output = next(a["content"] for a in saved["artifacts"] if a["kind"] == "step-output")
    assert output["events"][0]["payload"] == json.loads(deep_array(900))
    with deadline(30, "diff --json"):
        compared = runner.invoke(main, ["diff", "--json", str(path), str(good)])
    assert compared.exit_code == 1 and len(compared.stdout) < 10 * len(data)
    assert json.loads(compared.stdout)["equal"] is False


def test_a_response_nested_deep_is_shown_in_lines_about_its_size() -> None:
    """The replay pane's lines of a 500 KB response, a thousand arrays each 250 deep (as deep
    as orjson writes), and of one 900 deep: about its size, the same JSON. Each line had
    been indented to its depth: 125 MB of text for the pane (900 deep: quadratic to write)."""
    from intentus_tui.tui.widgets.json_view import pretty_json_lines

    for payload in ([deep_array(250)] * 1000, [deep_array(900)] * 10):
        data = b"[" + b",".join(payload) + b"]"
        with deadline(30, "pretty JSON"):
            lines = pretty_json_lines(json.loads(data))
        assert sum(map(len, lines)) < 30 * len(data)
        assert json.loads("\n".join(lines)) == json.loads(data)
