"""A line written in parts (its root span's events made as they are written) is the line
made whole, byte for byte: for every file of the hostile corpus and of a real 1.3.0 world
(records, records with their write-ahead logs, WAL-only executions, damaged and empty
files)."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.core.detail import load_detail
from intentus_tui.core.export.otlp import streamed_traces_data, traces_data
from intentus_tui.render.json_lines import json_line, json_line_parts
from tests.hostile.corpus import build_corpus
from tests.intentusnet_world import RealWorld

MARK = "intentus-events-test"


def _same_line_streamed(path: Path, wal_dir: Path | None) -> bool:
    detail = load_detail(path, wal_dir)
    whole = json_line(traces_data(detail, producer_version="1"))
    doc, events = streamed_traces_data(detail, producer_version="1", mark=MARK)
    parts = [json_line(doc)] if events is None else list(json_line_parts(doc, MARK, events))
    return b"".join(parts) == whole


def test_a_streamed_line_is_the_whole_line(tmp_path: Path, real_world: RealWorld) -> None:
    corpus = build_corpus(tmp_path)
    files = [*corpus.record_paths(), *corpus.wal_paths()]
    assert any(path.suffix == ".wal" for path in files)
    real = sorted(real_world.records_dir.glob("*.json"))
    checked = [(path, corpus.wal_dir) for path in files] + [(path, None) for path in real]
    differ = [path.name for path, logs in checked if not _same_line_streamed(path, logs)]
    assert not differ
