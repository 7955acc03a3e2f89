"""Rules of the code's layout, checked on every run: no module over 900 lines (a reader
takes one in), and native code that knows JSON, files and bytes, never a record's field,
an event type or a summary's shape."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "intentus_tui"
MOST_LINES = 900
NATIVE_SOURCES = sorted((PACKAGE / "core" / "speedups_src").glob("*.[ch]"))
# IntentusNet 1.3.0's record vocabulary: its sections, header fields and event types.
RECORD_WORDS = re.compile(
    r"executionId|createdUtcIso|envelopeHash|replayableReason|routerDecision|finalResponse"
    r"|AGENT_ATTEMPT|FALLBACK_TRIGGERED|FINAL_RESPONSE|ExecutionSummary|FIELD_NAMES"
)
SECTION_NAMES = {"header", "envelope", "events", "intent", "payload", "seq", "type", "agent"}
C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def test_no_module_is_over_900_lines() -> None:
    sources = [
        path
        for pattern in ("*.py", "*.c", "*.h", "*.tcss")
        for path in PACKAGE.rglob(pattern)
        if "__pycache__" not in path.parts
    ]
    assert len(sources) > 100
    too_long = {
        str(path.relative_to(PACKAGE)): lines
        for path in sources
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not too_long


def test_native_code_names_no_record_field_event_type_or_summary_field() -> None:
    assert {path.name for path in NATIVE_SOURCES} >= {"module.c", "speedups.h"}
    for path in NATIVE_SOURCES:
        text = path.read_text(encoding="utf-8")
        assert not RECORD_WORDS.findall(text), path.name
        literals = {literal for literal in C_STRING.findall(text)}
        assert not literals & SECTION_NAMES, (path.name, literals & SECTION_NAMES)
