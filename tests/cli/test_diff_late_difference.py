"""``diff A B``: two long values that differ only near their end. Each value was cut at its
end, so the first divergence's A: and B: lines and each changed value's two sides read the
same (``…jumps over th…`` twice). Now both sides are cut where they differ, from the same
place, an ellipsis where text is left out and the count of what is left out still said;
``--json`` still gives every value whole, and record text stays inert."""

from __future__ import annotations

import json
import os
from pathlib import Path

from intentus_tui.core.verist.format import format_value
from tests.cli.support import cli
from tests.intentusnet_world import echo_records

# Shared by A and B, with record text that must stay inert (an escape, a bidi override).
PREFIX = "The quick brown fox \x1b[2J\u202e jumps over the lazy dog while the farmer counts " * 3
BIDI_SHOWN = "⟨U+202E⟩"  # how the override is shown
TEXTS = (PREFIX + "his pears.", PREFIX + "his plums.")
VALUE_PATHS = (
    "envelope.payload.text",
    "events[4].payload.payload.echo.text",
    "finalResponse.payload.echo.text",
)


def _inert(text: str) -> bool:
    return "\x1b" not in text and "\u202e" not in text


def test_two_values_that_differ_late_are_cut_where_they_differ(tmp_path: Path) -> None:
    records, (id_a, id_b) = echo_records(tmp_path / "world", TEXTS)
    env = {**os.environ, "COLUMNS": "80"}
    done = cli("diff", id_a[:8], id_b[:8], "--dir", str(records), env=env)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert _inert(out)
    lines = out.splitlines()
    # The first divergence: A's event and B's, each with its own end.
    [line_a] = [line for line in lines if line.startswith("    A: ")]
    [line_b] = [line for line in lines if line.startswith("    B: ")]
    assert line_a != line_b.replace("B: ", "A: ", 1), out
    assert "pears" in line_a and "plums" in line_b, out
    assert line_a.startswith("    A: …") and line_b.startswith("    B: …"), out
    # Each changed value: both sides cut from the same place, saying how much is left out.
    for path in VALUE_PATHS:
        [line] = [text for text in lines if text.lstrip().startswith(f"{path}: ")]
        before, after = line.split(f"{path}: ", 1)[1].split(" → ")
        assert before.startswith("…") and after.startswith("…"), line
        assert 'pears."' in before and 'plums."' in after, line
        assert "plums" not in before and "pears" not in after, line
        # Counted in the record's characters (an override is one, shown as eight).
        shown = before.split(" (")[0].replace(BIDI_SHOWN, "\u202e")
        left_out = len(format_value(TEXTS[0])) - (len(shown) - 1)
        assert before.endswith(f"({left_out:,} characters left out)"), line
        assert before.replace("pears", "plums") == after, line
    # --json: every value whole.
    done = cli("diff", id_a[:8], id_b[:8], "--dir", str(records), "--json", env=env)
    entries = {e["path_text"]: e for e in json.loads(done.stdout)["entries"]}
    for path in VALUE_PATHS:
        assert (entries[path]["before"], entries[path]["after"]) == TEXTS
