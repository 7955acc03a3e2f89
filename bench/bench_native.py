"""Does each native helper earn its place? Each timed on its own step against its
pure-Python definition, on generated 1.3.0-shaped records, in CPU time per call.

Steps: ``canonical_json`` (the envelope's canonical bytes, as the index hashes them),
``has_long_digit_run`` (a whole record file, before orjson reads it), the listing row's
terminal-control check (``json_bytes_safe`` on a row), ``stat_stamps`` (a warm
re-open's stat of every file, per file), ``read_plain_file`` (each file read whole with
its stamp, as the index reads it), ``write_in_key_order`` (the listing's rows, as the
workers send them in blocks, put in time order and written to ``/dev/null``, per row) and
``copy_in_key_order`` (a first open's ordered copy of the cache's file of those rows, made
whole, per row).

Usage: ``python bench/bench_native.py [--dir DIR] [--count 2000]`` (DIR: records made
by ``bench/gen_records.py``; made here in a temporary directory when not given).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from intentus_tui.core import fsio, native, sanitize
from intentus_tui.core.index import scan
from intentus_tui.core.index.summarize import summarize_file
from intentus_tui.core.records import hashing, load
from intentus_tui.render import listing_order
from intentus_tui.render.rows import LISTING_ROWS, row_line


def _cpu_per_call(step: Callable[[], Any], calls: int, rounds: int = 5) -> float:
    """Microseconds of CPU per call: the best of ``rounds`` (a shared machine only adds)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        step()
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    if not native.AVAILABLE:
        sys.exit("the native helpers are off or not built: nothing to compare")
    directory = args.dir
    if directory is None:
        from gen_records import generate

        directory = Path(tempfile.mkdtemp(prefix="intentus-native-")) / "records"
        generate(directory, args.count, 1)
    names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))[: args.count]
    paths = [os.path.join(directory, n) for n in names]
    texts = [Path(p).read_bytes() for p in paths]
    envelopes = []
    for text in texts:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("envelope"), dict):
            envelopes.append(value["envelope"])
    rows = [row_line(summarize_file(p)[1]) for p in paths]
    results: list[tuple[str, float, float]] = []

    def compare(name: str, with_c: Callable[[], Any], pure: Callable[[], Any], calls: int) -> None:
        results.append((name, _cpu_per_call(with_c, calls), _cpu_per_call(pure, calls)))

    def pure_canonical() -> None:
        saved, hashing._native_canonical = hashing._native_canonical, None
        try:
            for envelope in envelopes:
                hashing.parsed_runtime_canonical(envelope)
        finally:
            hashing._native_canonical = saved

    compare(
        "canonical_json (an envelope)",
        lambda: [hashing.parsed_runtime_canonical(e) for e in envelopes],
        pure_canonical,
        len(envelopes),
    )
    compare(
        "has_long_digit_run (a file)",
        lambda: [load.has_long_digit_run(t) for t in texts],
        lambda: [load.pure_has_long_digit_run(t) for t in texts],
        len(texts),
    )
    if native.has_terminal_controls is not None:
        c_controls = native.has_terminal_controls
        compare(
            "has_terminal_controls (a row)",
            lambda: [c_controls(r) for r in rows],
            lambda: [sanitize.pure_has_terminal_controls(r) for r in rows],
            len(rows),
        )
    fd = os.open(directory, os.O_RDONLY)
    try:
        every = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
        compare(
            f"stat_stamps (a file, of {len(every)})",
            lambda: scan.stamps_of(every, fd),
            lambda: scan.python_stamps_of(every, fd),
            len(every),
        )
    finally:
        os.close(fd)
    if native.read_plain_file is not None:
        c_read = native.read_plain_file
        limit = load.HUGE_FILE_BYTES
        compare(
            "read_plain_file (a file)",
            lambda: [c_read(p, limit) for p in paths],
            lambda: [fsio.python_read_plain_file(p, limit) for p in paths],
            len(paths),
        )
    # The listing's rows as the workers send them: blocks with each row's key.
    _, blocks = scan.listing_blocks(os.path.join(directory, ""), names, None, LISTING_ROWS)
    if native.write_in_key_order is not None:
        sink = open(os.devnull, "wb")  # noqa: SIM115 - closed below

        def ordered_write(helper: Any) -> Callable[[], Any]:
            def write() -> None:
                saved, listing_order.write_in_key_order = listing_order.write_in_key_order, helper
                try:
                    listing_order.write_time_ordered(sink, blocks)
                finally:
                    listing_order.write_in_key_order = saved

            return write

        compare(
            "write_in_key_order (a row)",
            ordered_write(native.write_in_key_order),
            ordered_write(None),
            sum(len(block.lengths) for block in blocks),
        )
        sink.close()
    if native.copy_in_key_order is not None:
        # The first open's file of rows, as the cache writes it, and its ordered copy.
        scratch = tempfile.TemporaryDirectory(prefix="intentus-rows-")
        rows_file = Path(scratch.name) / "index-rows.json"
        places = scan.RowPlaces()
        with rows_file.open("wb") as out:
            for block in blocks:
                if block.rows:
                    out.write((b",\n" if places.size else b"") + block.rows)
                    places.add(block.keys, block.lengths)

        def ordered_copy(helper: Any) -> Callable[[], Any]:
            def copy() -> None:
                saved, listing_order.copy_in_key_order = listing_order.copy_in_key_order, helper
                try:
                    for old in rows_file.parent.glob("*-by-time-*"):
                        old.unlink()
                    ordered = listing_order.open_time_ordered(rows_file, places)
                    assert ordered is not None
                    ordered.close()
                finally:
                    listing_order.copy_in_key_order = saved

            return copy

        compare(
            "copy_in_key_order (a row)",
            ordered_copy(native.copy_in_key_order),
            ordered_copy(None),
            len(places.keys),
        )
        scratch.cleanup()
    whole = [t for t in texts if t.rstrip().endswith(b"}")]
    floor = _cpu_per_call(lambda: [orjson.loads(t) for t in whole], len(whole))
    print(f"{len(paths)} records in {directory}; CPU per call, best of 5 rounds")
    print(f"{'step':<36} {'C us':>7} {'Python us':>10} {'saved us':>9}")
    for name, c, pure in results:
        print(f"{name:<36} {c:>7.2f} {pure:>10.2f} {pure - c:>9.2f}")
    print(f"(for scale: orjson.loads of one record file: {floor:.2f} us)")


if __name__ == "__main__":
    main()
