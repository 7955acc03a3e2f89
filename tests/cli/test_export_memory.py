"""A big directory exports line by line: memory stays far below the size of the export."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

from tests.intentusnet_world import RealWorld

COPIES = 500


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
    done = subprocess.run(
        [sys.executable, "-c", measure, json.dumps([warm, whole])],
        capture_output=True,
        text=True,
        check=True,
    )
    code, peak = map(int, done.stdout.split())
    assert code == 0
    size = out.stat().st_size
    with out.open("rb") as lines:
        assert sum(1 for _ in lines) == COPIES
    # Holding the lines (or the executions) would take more than the file itself.
    assert peak < size / 4, (peak, size)
