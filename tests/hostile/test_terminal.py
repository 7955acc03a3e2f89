"""Terminal safety: markup and control sequences from records stay inert.

The core turns every control, bidi and zero-width character in displayed text into a
visible placeholder and leaves markup as literal text (the UI must then display it without
markup parsing). The CLI writes no ESC/C1/bidi in text output, even to a real terminal,
and its JSON output is valid with none of them raw.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.detail import detail_of, detail_to_json, load_detail
from intentus_tui.core.index.summarize import summarize
from intentus_tui.core.records.load import load_record_bytes
from intentus_tui.core.records.timeline import build_timeline
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.wal.read import read_wal
from tests.cli.support import run_in_pty
from tests.hostile.corpus import (
    HOSTILE_STRINGS,
    Corpus,
    build_corpus,
    dump_json,
    hostile_record,
    hostile_wal,
    safe_name,
)
from tests.hostile.harness import assert_no_raw_controls, raw_controls

ROOT = Path(__file__).parents[2]
MARKUP = [s for s in HOSTILE_STRINGS if s.startswith("[")]
PLACEHOLDERS = {
    "\x1b": "␛",
    "\x07": "␇",
    "\x00": "␀",
    "\x7f": "␡",
    "\r": "␍",
    "\x9b": "⟨9B⟩",
    "\x85": "⟨85⟩",
    "\u202e": "⟨U+202E⟩",
    "\u2066": "⟨U+2066⟩",
    "\u200b": "⟨U+200B⟩",
    "\ufeff": "⟨U+FEFF⟩",
}


@pytest.mark.parametrize("text", HOSTILE_STRINGS, ids=range(len(HOSTILE_STRINGS)))
def test_every_displayed_record_field_is_made_visible_not_interpreted(text: str) -> None:
    execution_id = f"{safe_name(text)}-x"
    result = load_record_bytes(
        Path(f"{execution_id}.json"), dump_json(hostile_record(text, execution_id))
    )
    summary = summarize(result)
    shown = sanitize_line(text)
    assert summary.intent == sanitize_line(f"{text} intent")
    assert summary.execution_id == sanitize_line(execution_id)
    assert shown in summary.agent and shown in summary.chain
    for raw, visible in PLACEHOLDERS.items():
        if raw in text:
            assert visible in summary.intent
    timeline = build_timeline(result.record)  # type: ignore[arg-type]
    error_row = next(r for r in timeline.rows if r.type == "AGENT_ATTEMPT_END")
    assert sanitize_line(f"{text} exception") in error_row.summary
    assert timeline.rows[-1].type == sanitize_line(f"{text}_EVENT")
    assert_no_raw_controls([[r.type, r.agent, r.summary, r.status] for r in timeline.rows])


@pytest.mark.parametrize("text", MARKUP)
def test_markup_is_kept_literally(text: str) -> None:
    """The core never eats or escapes brackets: ``[b]`` is shown as ``[b]``."""
    result = load_record_bytes(Path("m-1.json"), dump_json(hostile_record(text, "m-1")))
    summary = summarize(result)
    assert summary.intent == f"{text} intent"
    doc = detail_to_json(detail_of(result))
    assert doc["intent"] == f"{text} intent"
    assert f"{text} exception" in doc["attempts"][0]["exception"]


@pytest.mark.parametrize("text", HOSTILE_STRINGS, ids=range(len(HOSTILE_STRINGS)))
def test_wal_text_is_made_visible(tmp_path: Path, text: str) -> None:
    path = tmp_path / "w-1.wal"
    path.write_bytes(hostile_wal(text, "w-1"))
    log = read_wal(path)
    assert log.chain_valid
    detail = load_detail(path)
    doc = detail_to_json(detail)
    assert_no_raw_controls(doc, skip=(".file",))
    assert doc["wal"]["in_flight_step"]["agent"] == sanitize_line(text)


# ------------------------------------------------------------------ the CLI in a real terminal


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("tty"))


def _terminal_unsafe(output: bytes) -> set[str]:
    text = output.decode("utf-8", "replace").replace("\r\n", "\n")  # the pty adds CR
    return raw_controls(text)


def test_cli_text_output_to_a_real_terminal_carries_no_control_sequences(
    corpus: Corpus, tmp_path: Path
) -> None:
    # A terminal wide enough for every column whole: the intents are the markup to see.
    listing = run_in_pty("inspect", "--list", str(corpus.intentusnet), cwd=tmp_path, columns=1000)
    assert b"good-1" in listing
    assert not _terminal_unsafe(listing), listing[:2000]
    for literal in MARKUP:
        assert sanitize_line(literal).encode() in listing  # markup printed as text
    paths = [corpus.records_dir / f"{i}.json" for i in corpus.hostile_ids[6:14]]  # ESC..ZW
    commands = [("inspect", str(p)) for p in paths]
    commands += [("replay", str(p), "--force") for p in paths[:3]]
    for command in commands:
        out = run_in_pty(*command, cwd=tmp_path)
        assert not _terminal_unsafe(out), (command, out[:2000])
        assert b"\xe2\x90\x9b" in out or b"\xe2\x9f\xa8" in out  # ␛ or ⟨..⟩ shown


def test_cli_json_output_to_a_real_terminal_is_valid_and_inert(
    corpus: Corpus, tmp_path: Path
) -> None:
    for execution_id in corpus.hostile_ids[6:14]:  # ESC, OSC, C1, bidi, zero-width
        path = corpus.records_dir / f"{execution_id}.json"
        out = run_in_pty("inspect", str(path), "--json", cwd=tmp_path)
        assert not _terminal_unsafe(out), out[:2000]
        doc = json.loads(out.decode("utf-8").replace("\r\n", "\n"))
        assert doc["file"] == str(path)  # the real path, exact once decoded


def test_a_snapshot_on_standard_output_is_inert_and_the_same_value_as_its_file(
    corpus: Corpus, tmp_path: Path
) -> None:
    """``snapshot -o -`` wrote a hostile record's C1 controls (CSI as 0x9B) and DEL raw to
    the terminal; they are escaped now, and the JSON is the value ``-o FILE`` writes."""
    for execution_id in corpus.hostile_ids[6:14]:  # ESC, OSC, C1, bidi, zero-width
        path = corpus.records_dir / f"{execution_id}.json"
        out = run_in_pty("snapshot", str(path), "-o", "-", cwd=tmp_path)
        assert not _terminal_unsafe(out), out[:2000]
        printed = out.decode("utf-8").replace("\r\n", "\n")
        start = printed.index("{")
        value, _ = json.JSONDecoder().raw_decode(printed[start:])  # a warning may follow
        target = tmp_path / f"{safe_name(execution_id)}.snapshot.json"
        written = run_in_pty("snapshot", str(path), "-o", str(target), cwd=tmp_path)
        assert target.exists(), written[:2000]
        assert value == json.loads(target.read_text(encoding="utf-8"))
