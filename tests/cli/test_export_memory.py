"""A big directory exports line by line, and a huge record's line is written in parts: memory
stays far below the size of the export."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

from tests.core.export.support import prove_otlp_line, root_of
from tests.intentusnet_world import RealWorld

COPIES = 500


def _in_a_child(script: str, warm: list[str], argv: list[str]) -> tuple[int, int]:
    """The two numbers ``script`` prints, run in a fresh interpreter given ``[warm, argv]``
    (command lines: the first run to import the code, the second measured)."""
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps([warm, argv])],
        capture_output=True,
        text=True,
        check=True,
    )
    first, second = map(int, done.stdout.split())
    return first, second


def test_a_big_directory_streams(tmp_path: Path, real_world: RealWorld) -> None:
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    template = json.loads((real_world.records_dir / f"{real_world.fallback}.json").read_text())
    for n in range(COPIES):
        execution_id = str(uuid.UUID(int=n + 1))
        template["header"]["executionId"] = execution_id
        (records / f"{execution_id}.json").write_text(json.dumps(template, ensure_ascii=False))
    out = tmp_path / "traces.jsonl"
    # Measured in a process of its own: in this one, whatever other tests left (the
    # interpreter's table of interned names about to grow, a module not yet imported)
    # was counted as the export's memory. Once first, so that the code it imports is not.
    warm = ["export", "--format", "otlp", execution_id, "--dir", str(tmp_path), "-o", str(out)]
    whole = ["export", "--format", "otlp", str(tmp_path), "-o", str(out)]
    measure = (
        "import json, sys, tracemalloc\n"
        "from intentus_tui.cli import run\n"
        "warm, whole = json.loads(sys.argv[1])\n"
        "assert run(warm) == 0\n"
        "tracemalloc.start()\n"
        "code = run(whole)\n"
        "print(code, tracemalloc.get_traced_memory()[1])\n"
    )
    code, peak = _in_a_child(measure, warm, whole)
    assert code == 0
    size = out.stat().st_size
    with out.open("rb") as lines:
        assert sum(1 for _ in lines) == COPIES
    # Holding the lines (or the executions) would take more than the file itself.
    assert peak < size / 4, (peak, size)


EVENTS = 10_000  # a record of about 10 MB: its OTLP line about 12 MB


def _long_record(real_world: RealWorld, path: Path) -> None:
    """The real fallback record with ``EVENTS`` more routing decisions, each with a 900
    character note, before its final response: a long execution, recorded as 1.3.0 does."""
    record = json.loads((real_world.records_dir / f"{real_world.fallback}.json").read_text())
    events = record["events"]
    decision = next(e for e in events if e["type"] == "ROUTER_DECISION")
    padded = {**decision, "payload": {**decision["payload"], "note": "p" * 900}}
    events[-1:-1] = [padded] * EVENTS
    record["events"] = [{**event, "seq": seq} for seq, event in enumerate(events, 1)]
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False))


def test_a_huge_record_is_one_line_not_held_whole(tmp_path: Path, real_world: RealWorld) -> None:
    """A record of 187 MB exported as OTLP took 1.5 GB: its line (230 MB) was built whole,
    as a document, a string and bytes, beside the record read. Now the root span's events
    are written as they are made: the export takes no more than reading the record (700
    MB there, as ``verify`` takes), plus a little."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    big = records / f"{real_world.fallback}.json"
    _long_record(real_world, big)
    small = tmp_path / "small" / ".intentusnet" / "records"
    small.mkdir(parents=True)
    (small / big.name).write_bytes((real_world.records_dir / big.name).read_bytes())
    out = tmp_path / "traces.jsonl"
    warm = ["export", "--format", "otlp", str(small.parent.parent), "-o", str(out)]
    whole = ["export", "--format", "otlp", str(tmp_path), "-o", str(out)]
    read = _grown(warm, ["read", str(big)])[0]
    exported, code = _grown(warm, whole)
    assert code == 0
    size = out.stat().st_size
    with out.open("rb") as lines:
        (line,) = lines
    doc = prove_otlp_line(line)  # OTLP/JSON, as opentelemetry-proto reads it
    assert len(root_of(doc)["events"]) == EVENTS + 8  # every event
    assert size > 10_000_000
    # Building the line whole took about four times the line on top of reading the record.
    assert exported - read < size / 2, (exported, read, size)


# Runs in a child: warms up (the code an export imports is not counted), then reads one
# record (``read PATH``) or runs the command line; prints how much its peak RSS grew (the
# process's own, VmHWM: ru_maxrss keeps the parent's, pytest's, across the exec).
GROWN = r"""
import json, sys
from pathlib import Path
from intentus_tui.cli import run
from intentus_tui.core.detail import load_detail
def peak():
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024
warm, argv = json.loads(sys.argv[1])
assert run(warm) == 0
base = peak()
if argv[0] == "read":
    detail, code = load_detail(Path(argv[1]), None), 0
else:
    code = run(argv)
print(peak() - base, code)
"""


def _grown(warm: list[str], argv: list[str]) -> tuple[int, int]:
    """How much a child's peak RSS grew doing ``argv`` (see ``GROWN``), and its code."""
    return _in_a_child(GROWN, warm, argv)
