"""Fuzzing the readers: every truncation point, random byte and token mutations, wrong types
in every field (deterministic and hypothesis-generated), for records and write-ahead logs.

Each input must come back classified, and every core consumer (summary, verification,
detail, timeline, replay, comparison, Verist diff, snapshot; for WALs the WAL-only row,
post-mortem and JSON view) must run on it without raising. Everything is seeded.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import RECORD_SECTIONS, LoadStatus, load_record_bytes
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry, read_wal
from tests.factories import make_record
from tests.hostile.corpus import HOSTILE_STRINGS, dump_json, hostile_wal
from tests.hostile.harness import exercise, exercise_bytes, exercise_wal
from tests.intentusnet_world import RealWorld

FUZZ_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI is reproducible
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _hostile(text: str) -> dict[str, Any]:
    record = make_record(
        execution_id="h-1", agents=((f"{text}-a", "error"), (f"{text}-b", "ok")), intent=text
    )
    record["finalResponse"]["error"] = {"code": text, "message": text}
    record["events"].append({"seq": len(record["events"]) + 1, "type": text, "payload": {}})
    return record


def _fixtures() -> dict[str, bytes]:
    return {
        "fallback": dump_json(
            make_record(execution_id="f-1", agents=(("a", "error"), ("b", "ok")))
        ),
        "documented": dump_json(
            make_record(execution_id="exec-d1", documented=True, final_status="error")
        ),
        "incomplete": dump_json(make_record(execution_id="i-1", final_status=None)),
        # Multi-byte UTF-8, control characters (written as \u escapes) and markup in the
        # intent, agent names, errors and an unknown event type.
        "hostile": dump_json(_hostile("\x1b[2J\x9b[b]\u202e\u200bé😀")),
    }


FIXTURES = _fixtures()


def _real_fixtures(real_world: RealWorld) -> dict[str, bytes]:
    records = real_world.records_dir
    return {
        f"real-{which}": (records / f"{getattr(real_world, which)}.json").read_bytes()
        for which in ("success", "fallback", "invalidated")
    }


# ------------------------------------------------------------------ every truncation point


def _check_truncation(
    data: bytes, original: dict[str, Any], cut: int, seen: set[tuple[object, ...]]
) -> None:
    result = load_record_bytes(Path("t.json"), data[:cut])
    # Every cut is loaded and its salvage checked. Every consumer runs on every record a cut
    # leaves that no cut before left (``seen``: what the consumers are given, all but where
    # the file ends, which only the load message says), and on every eighth cut, whose
    # outputs are checked too; the comparisons on every 32nd. The 10,501 cuts of the
    # fixtures leave 61 such records: running every consumer at each cut took 6.3 s of the
    # 6.8 s, the loads 0.5 s.
    shown = result.record.raw if result.record is not None else None
    given = (
        result.status,
        json.dumps(shown, sort_keys=True, default=repr),
        tuple(result.recovered or ()),
        result.partial,
        result.cut_final_status,
        result.damage.truncated if result.damage is not None else None,
    )
    if given not in seen or cut % 8 == 0:
        seen.add(given)
        exercise(result, compare=cut % 32 == 0, inspect=cut % 8 == 0)
    if cut == len(data):
        assert result.status is LoadStatus.OK
        return
    if not data[:cut].strip():
        assert result.status is LoadStatus.EMPTY
        return
    assert result.status in (LoadStatus.NOT_JSON, LoadStatus.SALVAGED), (cut, result.message)
    if result.status is LoadStatus.SALVAGED:
        assert result.damage is not None and result.damage.truncated, (cut, result.message)
        salvaged = result.record.raw  # type: ignore[union-attr]
        for section in result.recovered:
            assert salvaged[section] == original[section], (cut, section)
        if result.partial:
            events = salvaged["events"]
            assert events == original["events"][: len(events)], cut
    header_end = data.index(b'"envelope"')  # header is the first section 1.3.0 writes
    if cut > header_end:
        assert result.status is LoadStatus.SALVAGED, (cut, result.message)
        assert "header" in result.recovered


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_every_truncation_point_of_each_fixture_record(name: str) -> None:
    data = FIXTURES[name]
    original = json.loads(data)
    seen: set[tuple[object, ...]] = set()
    for cut in range(len(data) + 1):
        _check_truncation(data, original, cut, seen)


def test_every_truncation_point_of_records_written_by_intentusnet(real_world: RealWorld) -> None:
    for data in _real_fixtures(real_world).values():
        original = json.loads(data)
        seen: set[tuple[object, ...]] = set()
        for cut in range(0, len(data) + 1, 3):
            _check_truncation(data, original, cut, seen)


# ------------------------------------------------------------------ random byte mutations


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(buf))
        op = rng.randrange(6)
        if op == 0:
            buf[at] = rng.randrange(256)
        elif op == 1:
            del buf[at : at + rng.randint(1, 64)]
        elif op == 2:
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3:
            start = rng.randrange(len(buf))
            buf[at:at] = buf[start : start + rng.randint(1, 200)]
        elif op == 4:
            buf[at] ^= 1 << rng.randrange(8)
        else:
            buf[at:at] = rng.choice(
                [b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\xc3", b"\xed\xa0\x80"]
            )
        if not buf:
            buf = bytearray(b"{")
    return bytes(buf)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_random_byte_mutations(name: str) -> None:
    rng = random.Random(f"bytes-{name}")
    data = FIXTURES[name]
    for _ in range(250):
        exercise_bytes(_mutate_bytes(data, rng))


# ------------------------------------------------------------------ token mutations

_TOKEN = re.compile(
    rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}\[\]:,]'
)
HOSTILE_TOKENS = [
    b"NaN",
    b"-Infinity",
    b"Infinity",
    b"1e999",
    b"-0",
    b"9" * 5000,
    b"18446744073709551616",
    b"null",
    b"true",
    b"[]",
    b"{}",
    b'""',
    b'"\\u0000\\u001b[2J\\ud800"',
    b'"\xe2\x80\xae[b]x[/b]"',
    b"[" * 2000 + b"]" * 2000,
    b'{"a":' * 900 + b"1" + b"}" * 900,
    b"{",
    b"]",
    b",",
    b":",
    b"",
]


def _mutate_tokens(data: bytes, rng: random.Random) -> bytes:
    spans = [m.span() for m in _TOKEN.finditer(data)]
    out = data
    for _ in range(rng.randint(1, 3)):
        start, end = rng.choice(spans)
        if start > len(out):
            continue
        replacement = rng.choice([*HOSTILE_TOKENS, out[start:end] * 2])
        out = out[:start] + replacement + out[end:]
    return out


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_random_token_mutations(name: str) -> None:
    rng = random.Random(f"tokens-{name}")
    data = FIXTURES[name]
    for _ in range(250):
        exercise_bytes(_mutate_tokens(data, rng))


# ------------------------------------------------------------------ wrong types in every field


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        yield (*prefix, key)
        yield from _paths(child, (*prefix, key))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replaced(value[head], rest, new)
    return copy


WRONG_VALUES: list[Any] = [
    None,
    True,
    -(2**70),
    float("nan"),
    float("-inf"),
    "\x1b[2J[b]wrong[/b]\u202e",
    [],
    [1, "x", None],
    {},
    {"nested": {"deeper": [float("inf")]}},
]


@pytest.mark.parametrize("name", ["fallback", "documented"])
def test_every_field_with_every_wrong_type(name: str) -> None:
    original = json.loads(FIXTURES[name])
    paths = list(_paths(original))
    assert len(paths) > 50
    for n, path in enumerate(paths):
        for m, wrong in enumerate(WRONG_VALUES):
            record = _replaced(original, path, wrong)
            data = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass")
            result = load_record_bytes(Path("w.json"), data)
            assert result.status is LoadStatus.OK, (path, wrong, result.message)
            exercise(result, compare=(n + m) % 10 == 0, inspect=(n + m) % 2 == 0)
    for section in RECORD_SECTIONS:
        without = {k: v for k, v in original.items() if k != section}
        exercise_bytes(json.dumps(without).encode())


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=20)
    | st.sampled_from(HOSTILE_STRINGS)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(HOSTILE_STRINGS), children, max_size=4
        )
    ),
    max_leaves=12,
)
ORIGINAL = json.loads(FIXTURES["fallback"])
ORIGINAL_PATHS = list(_paths(ORIGINAL))


@FUZZ_SETTINGS
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(ORIGINAL_PATHS), json_values), min_size=1, max_size=4
    )
)
def test_hypothesis_records_with_wrong_types(changes: list[tuple[tuple[Any, ...], Any]]) -> None:
    record: Any = ORIGINAL
    for path, value in changes:
        try:
            record = _replaced(record, path, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change replaced this path's parent
    data = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass")
    result = load_record_bytes(Path("h.json"), data)
    assert result.status in (LoadStatus.OK, LoadStatus.SALVAGED, LoadStatus.NOT_UTF8)
    exercise(result)


# ------------------------------------------------------------------ write-ahead logs

WAL = hostile_wal("agent é", "wal-1")
WAL_ENTRIES = [json.loads(line) for line in WAL.splitlines()]


def _wal_file(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "wal-1.wal"
    path.write_bytes(data)
    return path


def test_every_truncation_point_of_a_wal(tmp_path: Path) -> None:
    for cut in range(len(WAL) + 1):
        log = read_wal(_wal_file(tmp_path, WAL[:cut]))
        exercise_wal(log)
        complete = WAL[:cut].count(b"\n")
        assert len(log.entries) in (complete, complete + 1)  # a last line without its \n
        assert log.chain_break is None, (cut, log.issues)  # a torn tail is a crash, not tampering
        if log.entries:
            assert log.chain_valid, (cut, log.issues)
        else:  # nothing complete yet: nothing to check, neither verified nor broken
            assert not log.checkable and not log.chain_valid


def test_wal_random_byte_and_line_mutations(tmp_path: Path) -> None:
    rng = random.Random("wal")
    lines = WAL.splitlines(keepends=True)
    for _ in range(300):
        data = _mutate_bytes(WAL, rng)
        if rng.random() < 0.5:
            shuffled = list(lines)
            rng.shuffle(shuffled)
            data = b"".join(shuffled[: rng.randint(0, len(shuffled))])
        exercise_wal(read_wal(_wal_file(tmp_path, data)))


@FUZZ_SETTINGS
@given(
    index=st.integers(min_value=0, max_value=len(WAL_ENTRIES) - 1),
    key=st.sampled_from(sorted(WAL_ENTRIES[0])),
    value=json_values,
    rehash=st.booleans(),
)
def test_hypothesis_wal_entries_with_wrong_types(
    tmp_path_factory: pytest.TempPathFactory, index: int, key: str, value: Any, rehash: bool
) -> None:
    entries = [dict(e) for e in WAL_ENTRIES]
    entries[index][key] = value
    if rehash and key not in ("entry_hash",):
        try:  # the chain stays valid: only the type is wrong
            fields = {
                k: entries[index].get(k)
                for k in (
                    "seq",
                    "execution_id",
                    "timestamp_iso",
                    "entry_type",
                    "payload",
                    "prev_hash",
                )
            }
            entries[index] = make_wal_entry(**fields)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pass
    data = b"".join(encode_wal_line(e) for e in entries)
    tmp = tmp_path_factory.mktemp("walh")
    exercise_wal(read_wal(_wal_file(tmp, data)))


# ------------------------------------------------------------------ the index, file by file


@FUZZ_SETTINGS
@given(
    data=st.lists(
        st.binary(max_size=64) | st.sampled_from(list(FIXTURES.values())), min_size=1, max_size=6
    )
)
def test_hypothesis_index_updates_on_fuzzed_files(
    tmp_path_factory: pytest.TempPathFactory, data: list[bytes]
) -> None:
    """The index is fed whatever lands in the directory, one update at a time."""
    directory = tmp_path_factory.mktemp("idx")
    index = DirectoryIndex(RecordRoot(directory, None, directory), use_cache=False, workers=1)
    rng = random.Random(len(data))
    for n, blob in enumerate(data):
        path = directory / f"f-{n % 3}.json"
        path.write_bytes(_mutate_bytes(blob, rng) if blob and rng.random() < 0.5 else blob)
        index.update([path])
    assert {s.key for s in index.summaries()} == {p.name for p in directory.glob("*.json")}
