"""Every file yields a classified result, never an exception."""

from __future__ import annotations

import gc
import json
import os
import types
from pathlib import Path

import pytest

from intentus_tui.core.paths import list_record_paths
from intentus_tui.core.records.load import LoadStatus, load_record_bytes, load_record_file
from tests.factories import make_record, write_record


def _load_text(tmp_path: Path, data: bytes):
    path = tmp_path / "x.json"
    path.write_bytes(data)
    return load_record_file(path)


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"", LoadStatus.EMPTY),
        (b"  \n\t ", LoadStatus.EMPTY),
        (b"hello", LoadStatus.NOT_JSON),
        (b"[1, 2]", LoadStatus.NOT_RECORD),
        (b'"just a string"', LoadStatus.NOT_RECORD),
        (b"null", LoadStatus.NOT_RECORD),
        (b'{"workflowId": "w", "artifacts": []}', LoadStatus.NOT_RECORD),
        (b"\xff\xfe{}", LoadStatus.NOT_UTF8),
        (b"[" * 100_000, LoadStatus.TOO_DEEP),
    ],
    ids=["empty", "whitespace", "text", "list", "string", "null", "verist", "utf16", "deep"],
)
def test_bad_files_are_classified(tmp_path: Path, data: bytes, status: LoadStatus) -> None:
    result = _load_text(tmp_path, data)
    assert result.status is status
    assert result.message


def test_nan_infinity_and_big_ints_parse_like_python_json(tmp_path: Path) -> None:
    record = make_record()
    text = json.dumps(record).replace(
        '"text": "hello"', '"text": NaN, "n": 1' + "0" * 40 + ', "inf": -Infinity'
    )
    result = _load_text(tmp_path, text.encode())
    assert result.status is LoadStatus.OK and result.record is not None
    payload = result.record.envelope["payload"]
    assert payload["n"] == 10**40 and payload["inf"] == float("-inf")


def test_deep_nesting_is_classified_not_crashed(tmp_path: Path) -> None:
    deep = '{"header": {}, "envelope": ' + "[" * 100_000 + "]" * 100_000 + "}"
    result = _load_text(tmp_path, deep.encode())
    assert result.status in (LoadStatus.TOO_DEEP, LoadStatus.SALVAGED, LoadStatus.OK)


def test_bom_is_accepted_with_a_note(tmp_path: Path) -> None:
    result = _load_text(tmp_path, b"\xef\xbb\xbf" + json.dumps(make_record()).encode())
    assert result.status is LoadStatus.OK
    assert any("byte-order mark" in n for n in result.notes)


def test_invalid_utf8_inside_a_record_is_salvaged(tmp_path: Path) -> None:
    data = json.dumps(make_record()).encode().replace(b"hello", b"he\xffllo")
    result = _load_text(tmp_path, data)
    assert result.status is LoadStatus.SALVAGED
    assert result.damage is not None and "UTF-8" in result.message


def test_every_truncation_point_is_classified(tmp_path: Path) -> None:
    full = json.dumps(make_record(agents=(("a", "error"), ("b", "ok"))), indent=2).encode()
    seen = set()
    for cut in range(len(full)):
        result = load_record_bytes(Path("t.json"), full[:cut])
        seen.add(result.status)
        assert result.status in (LoadStatus.EMPTY, LoadStatus.NOT_JSON, LoadStatus.SALVAGED)
        if result.status is LoadStatus.SALVAGED:
            assert result.damage is not None and result.damage.truncated
            assert result.damage.offset == len(full[:cut].rstrip()) or result.damage.offset <= cut
    assert seen == {LoadStatus.EMPTY, LoadStatus.NOT_JSON, LoadStatus.SALVAGED}
    assert load_record_bytes(Path("t.json"), full).status is LoadStatus.OK


def test_salvage_keeps_complete_events_before_the_cut() -> None:
    record = make_record(agents=(("a", "error"), ("b", "ok")))
    full = json.dumps(record, indent=2)
    cut = full.index('"FALLBACK_TRIGGERED"')
    result = load_record_bytes(Path("t.json"), full[:cut].encode())
    assert result.status is LoadStatus.SALVAGED and result.record is not None
    assert [e.type for e in result.record.events] == [e["type"] for e in record["events"][:3]]
    assert result.recovered == ("header", "envelope", "routerDecision")
    assert result.partial == ("events",)
    assert "line" in result.message and "byte" in result.message


def test_garbage_in_the_middle_reports_the_offset() -> None:
    full = json.dumps(make_record(), indent=2)
    at = full.index('"routerDecision"')
    broken = full[:at] + "@@@" + full[at:]
    result = load_record_bytes(Path("t.json"), broken.encode())
    assert result.status is LoadStatus.SALVAGED
    assert result.damage is not None and not result.damage.truncated
    assert result.damage.offset == len(full[:at].encode())
    assert result.recovered == ("header", "envelope")


def test_a_raw_control_character_is_named_without_a_dangling_at() -> None:
    """json says "Invalid control character at" before the position it prints: the
    message read "...: invalid control character at." """
    full = json.dumps(make_record(intent="Classify"), indent=2)
    broken = full.replace('"Classify"', '"Class\x01ify"', 1)
    result = load_record_bytes(Path("t.json"), broken.encode())
    assert result.status is LoadStatus.SALVAGED and result.damage is not None
    assert result.damage.expected == "Invalid control character"
    assert result.damage.offset == broken.index("\x01")
    assert "invalid control character." in result.message
    assert " at." not in result.message


def test_non_files_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "dir.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "broken.json").symlink_to(tmp_path / "nowhere.json")
    assert load_record_file(tmp_path / "dir.json").status is LoadStatus.NOT_A_FILE
    fifo = load_record_file(tmp_path / "fifo.json")  # must not block
    assert fifo.status is LoadStatus.NOT_A_FILE and "FIFO" in fifo.message
    assert load_record_file(tmp_path / "broken.json").status is LoadStatus.UNREADABLE
    assert load_record_file(tmp_path / "gone.json").status is LoadStatus.UNREADABLE


def test_permission_denied_is_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_record(tmp_path, make_record())

    def deny(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", deny)
    result = load_record_file(path)
    assert result.status is LoadStatus.UNREADABLE and "Permission denied" in result.message


def test_temp_and_hidden_files_are_not_records(tmp_path: Path) -> None:
    write_record(tmp_path, make_record(execution_id="real"))
    (tmp_path / "real.json.tmp").write_text("{")
    (tmp_path / ".real.json.abc.tmp").write_text("{")
    (tmp_path / ".hidden.json").write_text("{}")
    (tmp_path / "notes.txt").write_text("x")
    assert [p.name for p in list_record_paths(tmp_path)] == ["real.json"]


def test_round_trip_keeps_unknown_fields_and_event_types() -> None:
    record = make_record()
    record["header"]["x-custom"] = {"kept": True}
    record["events"].append(
        {"seq": 99, "type": "MODEL_CALL", "payload": {"model": "m"}, "extra": 1}
    )
    record["vendorSection"] = [1, 2]
    result = load_record_bytes(Path("r.json"), json.dumps(record).encode())
    assert result.record is not None
    assert result.record.to_json() == record
    assert result.record.events[-1].type == "MODEL_CALL"


def test_wrong_types_do_not_raise() -> None:
    weird = {
        "header": [],
        "envelope": "x",
        "events": {"a": 1},
        "finalResponse": 5,
        "routerDecision": "r",
    }
    result = load_record_bytes(Path("w.json"), json.dumps(weird).encode())
    assert result.status is LoadStatus.OK and result.record is not None
    record = result.record
    assert record.execution_id is None and record.intent_name is None and record.events == ()


def test_integers_beyond_64_bits_keep_their_exact_value_and_hash(tmp_path: Path) -> None:
    from intentus_tui.core.records.verify import HashStatus, check_envelope_hash

    record = make_record()
    record["envelope"]["payload"] = {"big": 2**70, "negative": -(2**65), "edge": 2**63}
    from intentus_tui.core.records.hashing import runtime_envelope_hash

    record["header"]["envelopeHash"] = runtime_envelope_hash(record["envelope"])
    result = _load_text(tmp_path, json.dumps(record).encode())
    assert result.record is not None
    assert result.record.envelope["payload"] == {"big": 2**70, "negative": -(2**65), "edge": 2**63}
    assert check_envelope_hash(result.record).status is HashStatus.MATCH


# ---------------------------------------------------------------------------
# The cut-short shortcut: when orjson read an object to its very end, the whole-text
# stdlib parse is skipped and the section walk alone says where the file breaks.
# ---------------------------------------------------------------------------


def _cut_points(data: bytes, step: int) -> list[int]:
    structural = [i for i, b in enumerate(data) if b in b'{}[],:"']
    return sorted({*range(0, len(data), step), *structural, *(i + 1 for i in structural)})


def test_cut_short_shortcut_reads_every_truncation_like_the_whole_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    from intentus_tui.core.records import load as formats
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path)
    sources = [(world.records_dir / f"{world.fallback}.json").read_bytes()]
    sources.append((world.records_dir / f"{world.error_truncated}.json").read_bytes())
    evil = make_record(execution_id="e1", intent="évil\x1b[2J ☃ \U0001f600")
    sources.append(json.dumps(evil, ensure_ascii=False, indent=2).encode())  # raw UTF-8
    sources.append(json.dumps({**evil, "events": {"not": "a list"}}).encode())
    sources.append(json.dumps(dict(reversed(evil.items())), separators=(",", ":")).encode())
    rng = random.Random(7)
    checked = shortcut = 0
    for data in sources:
        for cut in _cut_points(data, 1 if len(data) < 3000 else 3):
            piece = data[:cut]
            if rng.random() < 0.5 and cut % 2:
                piece += b"  \n"  # cut, then whitespace
            monkeypatch.setattr(formats, "_SHALLOW", 500)
            fast = load_record_bytes(Path("e1.json"), piece)
            monkeypatch.setattr(formats, "_SHALLOW", 0)  # the shortcut never applies
            assert fast == load_record_bytes(Path("e1.json"), piece), (cut, piece[-40:])
            checked += 1
            shortcut += fast.status is LoadStatus.SALVAGED
    assert checked > 3000 and shortcut > 1000


def test_salvaging_leaves_no_reference_cycles_behind() -> None:
    # A scan runs with the cyclic GC off: whatever a damaged file leaves in cycles (an
    # exception holding the frames that hold it) would pile up until the scan ends.
    data = json.dumps(make_record(execution_id="e1"), indent=2).encode()
    cuts = [data[:cut] for cut in range(40, len(data), 97)] + [b"{nope", b'{"header": NaN, "x']
    gc.collect()
    gc.disable()
    try:
        for damaged in cuts:
            result = load_record_bytes(Path("e1.json"), damaged)
            assert result.status is not LoadStatus.OK
        del result
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection would free, kept to look at
        gc.collect()
    finally:
        gc.set_debug(0)
        garbage, gc.garbage[:] = gc.garbage[:], []
        gc.enable()
    # Frames of this project's code in a cycle: what salvaging left (a thread an earlier
    # test left running in this worker may leave cycles of its own: not counted).
    ours = [
        o
        for o in garbage
        if isinstance(o, types.FrameType) and "intentus_tui" in o.f_code.co_filename
    ]
    assert ours == []


def test_a_truncated_real_record_resumes_the_walk_after_its_last_whole_event(
    tmp_path: Path,
) -> None:
    """1.3.0 dies writing an event's error: everything before the last whole event is
    parsed in one go and the walk reads only the rest, finding what the whole walk finds."""
    from intentus_tui.core.records.load import Salvage, _resume_point
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path)
    text = (world.records_dir / f"{world.error_truncated}.json").read_text()
    resume = _resume_point(text)
    assert resume is not None and resume[2] is not None  # inside the events array
    whole, resumed = Salvage(text), Salvage(text)
    stop_whole, stop_resumed = whole.run(), resumed.run(resume)
    assert resumed.found == whole.found and list(resumed.found) == list(whole.found)
    assert resumed.in_events and whole.in_events
    assert (stop_resumed.msg, stop_resumed.pos) == (stop_whole.msg, stop_whole.pos)


@pytest.mark.parametrize(
    "text",
    [
        '{"header": {"a": 1,\n  "b": 2}, "events": [{"seq": 1},\n    {"seq": 2}, {"se',
        '{"header": {},\n  "events": [1,\n    {"x": [1,\n    {"y": 2}]}, {"seq',
        '{"header": {},\n  "events": [{"seq": 1}],\n  "x": "a\\",\n  \\"b',
        '{"header": {"k": 1, "k": 2},\n  "k2": NaN,\n  "events": [{"a": 1},\n    {"b',
    ],
    ids=["separator-nested", "event-separator-nested", "escaped-quote", "nan-and-repeats"],
)
def test_a_resume_point_never_changes_what_the_walk_finds(text: str) -> None:
    from intentus_tui.core.records.load import Salvage, _resume_point

    whole, resumed = Salvage(text), Salvage(text)
    stop_whole, stop_resumed = whole.run(), resumed.run(_resume_point(text))
    assert resumed.found == whole.found and list(resumed.found) == list(whole.found)
    assert resumed.in_events == whole.in_events
    assert (stop_resumed.msg, stop_resumed.pos) == (stop_whole.msg, stop_whole.pos)


def test_the_damage_is_placed_alike_with_what_the_parse_already_counted() -> None:
    """``_damage_at`` reuses the error's line and column and the text's UTF-8 size: every
    break of every cut (and of text damaged in the middle) lands where counting says."""
    from intentus_tui.core.records.load import Salvage, _damage_at

    evil = make_record(execution_id="e1", intent="évil\x1b[2J ☃ \U0001f600")
    sources = [json.dumps(evil, ensure_ascii=False, indent=2).encode()]
    sources.append(json.dumps(evil, indent=2).encode())  # ASCII
    sources.append(sources[0].replace(b'"seq": 2', b'"seq": 2 @', 1))  # broken inside
    checked = 0
    for data in sources:
        for cut in _cut_points(data, 1):
            piece = data[:cut]
            try:
                text = piece.decode()
            except UnicodeDecodeError:
                continue
            walk = Salvage(text)
            errors = [walk.run()]
            try:
                json.loads(text)
            except json.JSONDecodeError as err:
                errors.append(err)
            for err in errors:
                plain = _damage_at(text, err.pos, err.msg)
                assert _damage_at(text, err.pos, err.msg, len(piece), err) == plain, cut
                checked += 1
    assert checked > 2000


def test_a_resume_point_is_the_same_found_in_the_text_or_its_utf8(tmp_path: Path) -> None:
    """Given the text's UTF-8, ``_resume_point`` parses its pieces from the bytes: the same
    place, members and events at every cut of records with and without non-ASCII text."""
    from intentus_tui.core.records.load import _resume_point
    from tests.intentusnet_world import build_real_world

    world = build_real_world(tmp_path)
    evil = make_record(execution_id="e1", intent="évil ☃ \U0001f600 wörld")
    sources = [json.dumps(evil, ensure_ascii=False, indent=2).encode()]
    real = (world.records_dir / f"{world.fallback}.json").read_text()
    sources.append(real.replace("fallback", "fällbäck ☃").encode())
    sources.append(real.encode())
    resumed = 0
    for data in sources:
        for cut in _cut_points(data, 1):
            try:
                text = data[:cut].decode()
            except UnicodeDecodeError:
                continue
            expected = _resume_point(text)
            assert _resume_point(text, data[:cut]) == expected, cut
            resumed += expected is not None and expected[2] is not None
    assert resumed > 100


@pytest.mark.parametrize(("whole", "said"), [(1, "1 complete event"), (2, "2 complete events")])
def test_the_events_recovered_before_a_break_are_counted_in_words(
    tmp_path: Path, whole: int, said: str
) -> None:
    """A file cut inside its events said "1 complete events before the break"."""
    record = make_record()
    text = json.dumps(record, indent=2)
    starts = [i for i in range(len(text)) if text.startswith('{\n      "seq"', i)]
    cut = text[: starts[whole] + 20]  # inside the event after the whole ones
    result = load_record_bytes(tmp_path / "cut.json", cut.encode())
    assert result.status is LoadStatus.SALVAGED
    assert f"; {said} before the break." in result.message, result.message


def test_a_fifo_is_named_like_a_record_only_when_it_is(tmp_path: Path) -> None:
    """``inspect pipe.txt`` of a FIFO said "Named like a record but is a FIFO (named pipe)"
    of a name no record has; ``pipe.json`` is named like one."""
    for name in ("pipe.json", "pipe.txt"):
        os.mkfifo(tmp_path / name)
    assert load_record_file(tmp_path / "pipe.json").message == (
        "Named like a record but is a FIFO (named pipe)"
    )
    assert load_record_file(tmp_path / "pipe.txt").message == "Not a record: a FIFO (named pipe)"
