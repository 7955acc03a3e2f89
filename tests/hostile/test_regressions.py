"""One test per bug the hostile suite found in the core, named after the input that broke it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from intentus_tui.core.detail import wal_to_json
from intentus_tui.core.index.summarize import summarize
from intentus_tui.core.postmortem import build_postmortem
from intentus_tui.core.records.load import load_record_bytes
from intentus_tui.core.records.replay import ReplayEngine, ReplayHashMismatchError
from intentus_tui.core.records.timeline import build_timeline
from intentus_tui.core.sanitize import is_clean
from intentus_tui.core.verist.baselines import load_baseline
from intentus_tui.core.verist.snapshot import SnapshotError, load_snapshot
from intentus_tui.core.wal.read import read_wal
from tests.factories import make_record
from tests.hostile.corpus import _deep_wal_line, dump_json, hostile_wal
from tests.hostile.harness import deadline


def test_a_final_status_with_escape_sequences_is_sanitized() -> None:
    """A recorded status like ``"\\x1b[2J"`` reached the list row's ``final_status`` raw."""
    record = make_record(execution_id="st-1")
    for event in record["events"]:
        if event["type"] == "AGENT_ATTEMPT_END":
            event["payload"]["status"] = "\x1b]0;title\x07"
    record["finalResponse"]["status"] = "\x1b[2J\x9b31m\u202e"  # also the FINAL_RESPONSE event's
    result = load_record_bytes(Path("st-1.json"), dump_json(record))
    summary = summarize(result)
    timeline = build_timeline(result.record)  # type: ignore[arg-type]
    texts = [summary.final_status, timeline.final_status]
    texts += [a.status for a in timeline.attempts] + [r.status for r in timeline.rows]
    assert all(isinstance(t, str) and is_clean(t) for t in texts), texts
    assert summary.final_status == "␛[2J⟨9B⟩31m⟨U+202E⟩"  # as written, not lowercased


def test_an_unknown_event_payload_with_del_c1_and_bidi_is_sanitized() -> None:
    """An event of an unknown type is summarized as compact JSON, which escapes only C0:
    DEL, C1 controls and bidi overrides in its payload reached ``EventRow.summary`` raw."""
    record = make_record(execution_id="ev-1")
    payload = {"x": "del\x7f csi\x9b31m rlo\u202e zw\u200b"}
    record["events"].append(
        {"seq": len(record["events"]) + 1, "type": "CUSTOM", "payload": payload}
    )
    result = load_record_bytes(Path("ev-1.json"), dump_json(record))
    row = build_timeline(result.record).rows[-1]  # type: ignore[arg-type]
    assert is_clean(row.summary), row.summary
    assert row.summary == '{"x":"del␡ csi⟨9B⟩31m rlo⟨U+202E⟩ zw⟨U+200B⟩"}'


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_fifo_named_wal_does_not_block_the_wal_reader(tmp_path: Path) -> None:
    """``read_wal`` opened with a plain ``open()``, which waits forever for a writer on a FIFO
    named ``<id>.wal`` (``load_detail`` reads the WAL of every selected execution)."""
    fifo = tmp_path / "x.wal"
    os.mkfifo(fifo)
    (tmp_path / "d.wal").mkdir()
    fds = _open_fds()
    with deadline(5, "read_wal on a FIFO"):
        log = read_wal(fifo)
    assert log.file_status == "unreadable" and "FIFO" in log.message
    assert read_wal(tmp_path / "d.wal").file_status == "is_directory"
    assert _open_fds() == fds  # nothing leaked on either refusal


def test_a_wal_line_with_a_10000_digit_integer_is_a_bad_line(tmp_path: Path) -> None:
    """``json.loads`` raises a plain ``ValueError`` (not ``JSONDecodeError``) for an integer
    over 4300 digits; it escaped ``read_wal``."""
    path = tmp_path / "big.wal"
    path.write_bytes(b'{"seq": ' + b"9" * 10_000 + b"}\n" + b'{"seq": 1}\n')
    log = read_wal(path)
    assert [i.kind for i in log.issues] == ["not_json", "bad_entry"]
    assert log.issues[0].message == "line is not JSON (a number too long to read)"


def test_a_wal_entry_too_deep_to_hash_is_a_bad_entry(tmp_path: Path) -> None:
    """A payload just shallow enough for ``json.loads`` is too deep for ``json.dumps`` in the
    hash check, which runs a few frames deeper: ``RecursionError`` escaped ``read_wal``.

    Where exactly that depth lies depends on the caller's stack, so every depth around the
    interpreter's limit is tried; each must be classified, and one must be that case.
    """
    path = tmp_path / "deep-990.wal"  # the execution id _deep_wal_line writes
    too_deep_to_hash = 0
    for depth in range(850, 1050):
        path.write_bytes(_deep_wal_line(depth) + b"{}\n")  # the deep line is not the last
        log = read_wal(path)
        kinds = {i.kind for i in log.issues if i.line_no == 1}
        assert kinds in ({"not_json"}, {"bad_entry"}, {"hash_mismatch"}), (depth, kinds)
        too_deep_to_hash += "too deep" in log.issues[0].message
    assert too_deep_to_hash


def test_replay_with_an_envelope_too_deep_to_hash_is_a_mismatch() -> None:
    """``replay(env=...)`` hashed the given envelope with ``json.dumps``; a 990-deep one
    raised ``RecursionError`` (the CLI's ``replay --envelope`` then said "internal error")."""
    record = load_record_bytes(Path("r-1.json"), dump_json(make_record(execution_id="r-1")))
    engine = ReplayEngine.from_load_result(record)
    envelope: list[object] = []
    for _ in range(100_000):  # built bottom-up: no recursion needed to make it
        envelope = [envelope]
    with pytest.raises(ReplayHashMismatchError) as caught:
        engine.replay(env={"payload": envelope})
    assert "too deeply nested" in caught.value.provided


def test_a_fifo_named_like_a_snapshot_does_not_block_the_snapshot_loaders(tmp_path: Path) -> None:
    """``load_snapshot``/``load_baseline`` used ``Path.open``, which waits forever for a writer
    on a FIFO (``diff A B`` reads a side as a snapshot when it is not a record)."""
    fifo = tmp_path / "x.snapshot.json"
    os.mkfifo(fifo)
    fds = _open_fds()
    for loader in (load_snapshot, load_baseline):
        with deadline(5, f"{loader.__name__} on a FIFO"), pytest.raises(SnapshotError) as caught:
            loader(fifo)
        assert "not a regular file" in str(caught.value)
    assert _open_fds() == fds


def test_an_undeclared_side_effect_class_from_a_wal_is_sanitized(tmp_path: Path) -> None:
    """A step's ``side_effect`` that is not a known class was kept as written and reached
    the post-mortem (``PostMortem.side_effect``) and ``wal_to_json`` raw."""
    path = tmp_path / "se-1.wal"
    path.write_bytes(hostile_wal("\x1b[2J\u202e\x9b", "se-1"))
    log = read_wal(path)
    shown = [build_postmortem(None, log).side_effect, wal_to_json(log)["in_flight_step"]]
    shown += [s.side_effect for s in log.steps]
    assert all(is_clean(str(x)) for x in shown), shown
    assert log.in_flight_step is not None
    assert log.in_flight_step.side_effect == "␛[2j⟨U+202E⟩⟨9B⟩"
    assert read_wal(path).hint.verdict == "investigate_first"  # still an unknown class


def test_a_record_cut_inside_a_multibyte_character_is_salvaged() -> None:
    """1.3.0 writes records with ``ensure_ascii=False``; a crash can cut one inside a
    character. That file was classified ``not_utf8`` and nothing was recovered, while the
    same cut one byte earlier salvaged every complete section."""
    record = make_record(execution_id="mb-1", intent="Résumé")
    data = dump_json(record)
    at = data.index("Résumé".encode()) + 2  # between the two bytes of "é"
    result = load_record_bytes(Path("mb-1.json"), data[:at])
    assert result.status.value == "salvaged", result.message
    assert result.recovered == ("header",) and result.damage is not None
    assert result.damage.truncated
    assert result.record is not None and result.record.raw["header"] == record["header"]
    bad = load_record_bytes(Path("mb-2.json"), data[:at] + b"x" + data[at:])
    assert bad.status.value in ("not_utf8", "salvaged")  # invalid in the middle: not a cut
    assert bad.damage is not None and not bad.damage.truncated


def test_a_5000_digit_number_where_a_key_belongs_is_salvaged() -> None:
    """The salvage walk reads each top-level key as a JSON value; a 5000-digit number in a
    key's place (the whole-file parse stops there with "Expecting property name") raised a
    plain ``ValueError`` (Python's 4300-digit limit) out of the loader."""
    record = make_record(execution_id="big-1")
    data = dump_json(record).replace(b'"events"', b"9" * 5000, 1)
    result = load_record_bytes(Path("big-1.json"), data)
    assert result.status.value == "salvaged", result.message
    assert set(result.recovered) == {"header", "envelope", "routerDecision"}


@pytest.mark.parametrize("escape", ["\\u001b", "\\ud83d\\ude00"])
def test_a_record_cut_inside_a_unicode_escape_is_reported_as_truncated(escape: str) -> None:
    """A cut inside ``\\u001b`` (how JSON writes ESC) or a surrogate pair was described as
    "invalid JSON ... invalid \\uXXXX escape" instead of a truncated file."""
    data = dump_json(make_record(execution_id="esc-1", intent="Sum")).replace(
        b'"Sum"', f'"S{escape}um"'.encode()
    )
    start = data.index(b"\\u")
    for cut in range(start + 1, start + len(escape)):
        result = load_record_bytes(Path("esc-1.json"), data[:cut])
        assert result.damage is not None and result.damage.truncated, (cut, result.message)
        assert "truncated" in result.message


def test_a_symlink_loop_named_like_a_record_is_unreadable_not_an_error(tmp_path: Path) -> None:
    """``path_for`` resolved symlinks to refuse ones leading outside the store; a link to
    itself made ``Path.resolve`` raise ``RuntimeError`` ("internal error" in the CLI)."""
    from intentus_tui.core.records.store import FileExecutionStore

    os.symlink(tmp_path / "loop.json", tmp_path / "loop.json")
    store = FileExecutionStore(tmp_path)
    assert store.path_for("loop") == tmp_path / "loop.json"
    result = store.load_result("loop")
    assert result.status.value == "unreadable"
    assert result.message == "Cannot read: the link loops (it leads back to itself)"


def test_links_and_sockets_named_like_records_say_what_they_are(tmp_path: Path) -> None:
    """A link leading nowhere was a "file vanished (deleted or renamed while being read)",
    a socket "No such device or address", and each "the file is damaged"."""
    import socket

    from intentus_tui.core.records.load import load_record_file
    from intentus_tui.core.verdict import verdict_of

    os.symlink(tmp_path / "gone.json", tmp_path / "dangling.json")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "socket.json"))
        dangling = load_record_file(tmp_path / "dangling.json")
        sock = load_record_file(tmp_path / "socket.json")
    finally:
        server.close()
    assert dangling.message == "Cannot read: the link leads nowhere (its target does not exist)"
    assert (sock.status.value, sock.message) == (
        "not_a_file",
        "Named like a record but is a socket",
    )
    for result in (dangling, sock):
        reason = verdict_of(summarize(result)).outcome_reason
        said = result.message.removeprefix("Cannot read: ")  # not "cannot be read" twice
        assert reason == f"the file cannot be read: {said[0].lower()}{said[1:]}"


def test_a_diff_entry_too_deep_to_copy_is_shown_as_a_placeholder() -> None:
    """``diff --json`` copies each differing value through ``json.dumps``; for a value too
    deep for it the fallback ``str(value)`` recursed just as deep and raised."""
    from intentus_tui.cli.diff import entry_json
    from intentus_tui.core.verist.diff import DiffEntry

    value: list[object] = []
    for _ in range(100_000):
        value = [value]
    doc = entry_json(DiffEntry(("payload",), [], value, None))
    assert doc["after"] == "(nested too deeply to show)"
