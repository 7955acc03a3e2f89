"""Enormous inputs: a 200 MB record, nesting 100,000 deep, 10,000-digit integers.

Each is classified within a time bound and without more than ~1 GB of extra memory. The
200 MB cases run in a child process, so peak RSS measures that work and nothing else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from intentus_tui.core.records.load import LoadStatus, load_record_bytes, load_record_file
from intentus_tui.core.wal.log import read_wal
from tests.hostile.corpus import (
    BIG_DIGITS,
    DEEP,
    HUGE_BYTES,
    big_int_record,
    deep_array,
    deep_record,
    write_huge_record,
)
from tests.hostile.harness import deadline, exercise

ROOT = Path(__file__).parents[2]
GB = 1024**3

# Runs in a child: load, summarize, verify, detail of one file; prints peak RSS growth.
CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.index.summarize import summarize_path
path = Path(sys.argv[1])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
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
    "seconds": time.perf_counter() - start,
    "extra_bytes": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024,
}))
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
def test_a_200_mb_record_is_read_verified_and_shown_in_bounded_time_and_memory(
    huge: Path, tmp_path: Path
) -> None:
    proc = _child(str(huge), code=CHILD, cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["status"] == LoadStatus.OK.value
    assert report["hash"] == "match"
    assert report["seconds"] < 20, report
    assert report["extra_bytes"] < GB, report


@pytest.mark.slow
def test_the_cli_lists_and_verifies_a_200_mb_record(huge: Path, tmp_path: Path) -> None:
    start = time.perf_counter()
    listing = _child("inspect", "--list", str(huge.parent), "--json", cache=tmp_path)
    assert listing.returncode == 0, listing.stderr
    (row,) = json.loads(listing.stdout)["executions"]
    assert row["file"] == "huge-1.json" and row["execution_id"] == "huge-1"
    assert time.perf_counter() - start < 10  # listed from its head, not parsed whole
    verify = _child("verify", str(huge), "--json", cache=tmp_path)
    assert verify.returncode == 0, verify.stderr
    assert json.loads(verify.stdout)["files"][0]["hash"]["status"] == "match"


def test_nesting_100000_deep_is_classified_quickly() -> None:
    for data in (deep_array(DEEP), b'{"a":' * DEEP + b"1" + b"}" * DEEP, deep_record(DEEP, "d")):
        start = time.perf_counter()
        with deadline(10, "deep"):
            result = load_record_bytes(Path("deep.json"), data)
            exercise(result)
        assert result.status is LoadStatus.TOO_DEEP
        assert time.perf_counter() - start < 2
        for cut in (len(data) // 2, len(data) - 1):  # and damaged: the salvage walk too
            with deadline(10, "deep, cut"):
                exercise(load_record_bytes(Path("deep.json"), data[:cut]))


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
        start = time.perf_counter()
        with deadline(10, "big int"):
            result = load_record_bytes(Path("b.json"), data)
            exercise(result)
        assert time.perf_counter() - start < 2
        assert result.status in (LoadStatus.NOT_JSON, LoadStatus.NOT_RECORD, LoadStatus.SALVAGED)
    path = tmp_path / "b.json"
    path.write_bytes(big_int_record("b"))
    result = load_record_file(path)
    assert result.status is LoadStatus.SALVAGED and result.recovered == ("header",)
