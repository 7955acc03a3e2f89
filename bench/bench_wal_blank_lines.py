"""Reading a write-ahead log of blank lines, alone and around a real log's entries.

``--megabytes`` of newlines (and of ``"  \\n"`` lines), then the same with a log written by
the real IntentusNet 1.3.0 ``WALWriter`` after them: ``read_wal`` timed on each. Blank
lines were one Python object each (10 MB of newlines: ~14 s); they are skipped a buffer at
a time now.

    python bench/bench_wal_blank_lines.py [--megabytes 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from intentus_tui.core.wal.read import read_wal
from tests.core.wal.support import EXEC_ID, write_completed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    size = args.megabytes * 1_000_000
    with tempfile.TemporaryDirectory() as tmp:
        real = write_completed(Path(tmp) / "real")
        cases = {
            "newlines": b"\n" * size,
            "spaces": b"  \n" * (size // 3),
            "newlines + real log": b"\n" * size + real.read_bytes(),
        }
        for name, data in cases.items():
            path = Path(tmp) / f"{EXEC_ID}.wal"
            path.write_bytes(data)
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                log = read_wal(path)
                times.append(time.perf_counter() - start)
            print(
                f"{name:22} {len(data) / 1e6:5.1f} MB  median {statistics.median(times):.3f} s"
                f"  ({log.file_status}, {len(log.entries)} entries)"
            )


if __name__ == "__main__":
    main()
