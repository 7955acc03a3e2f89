"""What the Verify and Post-mortem tabs say of a file holding no whole record (binary,
empty, cut short): each thing once, in a sentence, as ``inspect ID`` says it."""

from __future__ import annotations

from pathlib import Path

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.core.model import Verdict
from intentus_tui.tui.presenters.timeline_summary import summary_content
from intentus_tui.tui.widgets.postmortem_pane import postmortem_lines
from intentus_tui.tui.widgets.verify_pane import verify_lines
from tests.factories import make_record, write_record


def text_of(lines: list) -> str:
    return "\n".join(line.plain for line in lines)


def _with_verdict(detail: ExecutionDetail) -> tuple[ExecutionDetail, None, Verdict | None]:
    """The Verify tab's arguments with its verdict, whose reasons it shows first."""
    return detail, None, detail.verdict


def test_a_cut_file_is_said_damaged_once(tmp_path: Path) -> None:
    """It said "the file is damaged: Damaged record: file ends at byte …"."""
    whole = write_record(tmp_path, make_record()).read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(whole[: len(whole) // 2])
    text = text_of(verify_lines(*_with_verdict(load_detail(cut))))
    assert "the file is damaged: file ends at byte " in text
    assert "damaged: Damaged record" not in text


def test_a_binary_file_is_not_utf8_text_and_its_hint_says_what_it_rests_on(
    tmp_path: Path,
) -> None:
    """It said "the file is damaged: Not UTF-8 text: …" and "Based on no write-ahead log
    (…)", which read as a sentence says nothing."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x00\xff\xfe\x00binary")
    detail = load_detail(binary)
    verify = text_of(verify_lines(*_with_verdict(detail)))
    assert "the file is not UTF-8 text: invalid UTF-8 at byte 1" in verify
    assert "damaged: Not UTF-8" not in verify
    postmortem = text_of(postmortem_lines(detail))
    assert "the file is not UTF-8 text: invalid UTF-8 at byte 1" in postmortem
    assert "Based on the file alone: no write-ahead log (" in postmortem
    assert "Based on no write-ahead log" not in postmortem


def test_an_empty_file_is_said_empty(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    detail = load_detail(empty)
    assert "? unknown — the file is empty" in text_of(verify_lines(*_with_verdict(detail)))
    assert "Based on the file alone: no write-ahead log (" in text_of(postmortem_lines(detail))


def test_a_readable_record_without_a_log_rests_on_the_record_alone(tmp_path: Path) -> None:
    detail = load_detail(write_record(tmp_path, make_record()))
    text = text_of(postmortem_lines(detail))
    assert "Based on the record alone: no write-ahead log (records do not declare" in text


def test_the_file_badge_says_what_the_file_is_in_its_line_s_words(tmp_path: Path) -> None:
    """A binary file's File badge read "NOT UTF8" (its code, "UTF-8" misspelled) and a text
    that is no JSON's "NOT JSON", while their lines say "Not UTF-8 text: …" and "Not a
    readable record: …"."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x00\xff\xfe\x00binary")
    text = tmp_path / "text.json"
    text.write_text("hello world\n")
    for path, said in ((binary, "NOT UTF-8 TEXT"), (text, "NOT A READABLE RECORD")):
        shown = text_of(verify_lines(*_with_verdict(load_detail(path)))).splitlines()
        assert f"File   {said}" in [line.strip() for line in shown], shown


def test_a_timeline_shown_without_a_verdict_says_the_file_in_its_line_s_words(
    tmp_path: Path,
) -> None:
    """Shown before its verdict, a binary file's timeline title said "✗ not utf8"."""
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x00\xff\xfe\x00binary")
    title = summary_content(load_detail(binary)).content.plain.splitlines()[0]
    assert title.endswith("✗ not UTF-8 text"), title
