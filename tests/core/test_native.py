"""The native helpers are byte-identical twins of the pure-Python definitions.

``canonical_json`` must write exactly what ``json.dumps(sort_keys=True, separators=(",",
":"), ensure_ascii=True)`` writes, or decline (None) and leave the value to it;
``has_long_digit_run``, ``has_terminal_controls``, ``stat_stamps`` and ``read_plain_file``
must answer as the pure scan, the regex, the stat loop and the plain read do. The module is built by
``pip install -e .`` (setup.py); where it cannot be built the pure code runs, and these
tests say so unless ``INTENTUS_TUI_PURE_PYTHON`` asked for that on purpose.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core import native
from intentus_tui.core.fsio import python_read_plain_file
from intentus_tui.core.index.scan import python_stamps_of
from intentus_tui.core.records.hashing import reference_runtime_canonical
from intentus_tui.core.records.load import pure_has_long_digit_run
from intentus_tui.core.sanitize import _JSON_UNSAFE, pure_has_terminal_controls
from tests.core.records.test_hashing import NOT_JSON, TRICKY_CHARS, json_values
from tests.factories import make_record
from tests.hostile.corpus import build_corpus, dump_json

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("INTENTUS_TUI_PURE_PYTHON")), reason="native speed-ups turned off"
)

# Characters json_text_safe escapes, their neighbours, and others sharing their lead bytes.
TERMINAL_EDGES = [
    "a", "\x7e", "\x7f", "\x80", "\x9f", "\xa0", "\u061b", "\u061c", "\u061d", "\u200a",
    "\u200b", "\u200f", "\u2010", "\u2029", "\u202a", "\u202e", "\u202f", "\u205f", "\u2060",
    "\u2069", "\u206a", "\u2192", "\ufefe", "\ufeff", "\uff00", "😀", "é", "\u0600",
]  # fmt: skip

PROOF = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _canonical(value: Any) -> bytes | None:
    assert native.canonical_json is not None
    return native.canonical_json(value)


def _reference(value: Any) -> bytes | type[BaseException]:
    try:
        return reference_runtime_canonical(value)
    except (ValueError, TypeError, RecursionError) as error:
        return type(error)


def _dumps(value: Any, sort_keys: bool, ensure_ascii: bool) -> bytes:
    """What the harmless-story variants hash: ``json.dumps`` with these options, as UTF-8."""
    text = json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=ensure_ascii)
    return text.encode("utf-8", "surrogatepass")


OPTIONS = [(True, True), (True, False), (False, True), (False, False)]


def test_the_native_module_is_built() -> None:
    # setup.py builds it on install; a machine without a C compiler runs the pure code.
    assert native.AVAILABLE, "intentus_tui.core._speedups was not built (no C compiler?)"


@PROOF
@given(json_values)
def test_canonical_json_is_byte_identical_to_json_dumps(value: Any) -> None:
    got = _canonical(value)
    assert got is not None  # every value of these strategies is made of exact JSON types
    assert got == _reference(value)


@PROOF
@given(st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=60))
def test_strings_and_keys_are_escaped_like_json(text: str) -> None:
    value = [text, {text: text, "k" + text: [text], text + "\x7f": None}]
    assert _canonical(value) == _reference(value)


@PROOF
@given(json_values, st.booleans(), st.booleans())
def test_canonical_json_with_options_is_byte_identical_to_json_dumps(
    value: Any, sort_keys: bool, ensure_ascii: bool
) -> None:
    assert native.canonical_json is not None
    got = native.canonical_json(value, sort_keys, ensure_ascii)
    assert got is not None  # exact JSON types only, lone surrogates included
    assert got == _dumps(value, sort_keys, ensure_ascii)


def test_a_module_built_before_the_options_is_told_apart() -> None:
    assert native.CANONICAL_OPTIONS  # this build takes them
    assert native.canonical_json is not None and native.takes_options(native.canonical_json)

    def older(value: object) -> bytes | None:  # METH_O: one argument only
        return b"0"

    assert not native.takes_options(older)


def test_the_options_default_to_the_canonical_form() -> None:
    assert native.canonical_json is not None
    value = {"b": ["é", 1.5, None], "a": {"\ud800": "😀\x7f"}}
    assert native.canonical_json(value) == native.canonical_json(value, True, True)
    assert native.canonical_json(value, 1, 0) == _dumps(value, True, False)  # truth values
    with pytest.raises(TypeError):
        native.canonical_json(value, True, True, True)  # type: ignore[call-arg]


@PROOF
@given(
    st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=60),
    st.sampled_from(OPTIONS),
)
def test_strings_and_keys_are_escaped_like_json_with_each_option(
    text: str, options: tuple[bool, bool]
) -> None:
    assert native.canonical_json is not None
    value = [text, {text: text, "k" + text: [text], text + "\x7f": None, "": {text: 0}}]
    assert native.canonical_json(value, *options) == _dumps(value, *options)


def test_without_ascii_escaping_an_escape_is_found_at_every_place() -> None:
    # ASCII text is copied 8 bytes at a time (DEL is not escaped then), other text one
    # code point at a time as UTF-8.
    assert native.canonical_json is not None
    bytewise = [chr(code) for code in range(256)]
    for length in (7, 8, 9, 16, 17, 40):
        for at in range(length):
            for char in [*TRICKY_CHARS, *bytewise]:
                text = "p" * at + char + "q" * (length - at - 1)
                for sort_keys in (True, False):
                    got = native.canonical_json(text, sort_keys, False)
                    assert got == _dumps(text, sort_keys, False), (length, at, char)
    big = {"k": "x" * 9000 + "é", "l": ["y" * 3000 + "\x1f"] * 5, "m": "z😀" * 20000}
    for options in OPTIONS:
        assert native.canonical_json(big, *options) == _dumps(big, *options)


def test_unsorted_dicts_keep_their_insertion_order() -> None:
    assert native.canonical_json is not None
    rng = random.Random(11)
    alphabet = [*TRICKY_CHARS, "A", "b", "ÿ", "Ā"]
    for size in [0, 1, 31, 32, 33, 500]:
        keys = ["".join(rng.choices(alphabet, k=rng.randint(0, 4))) for _ in range(size)]
        value: dict[str, Any] = {key: index for index, key in enumerate(keys)}
        if value:
            del value[next(iter(value))]  # a deleted slot: the order is still insertion's
        value["late"] = {"z": 1, "a": 2}
        for ensure_ascii in (True, False):
            assert native.canonical_json(value, False, ensure_ascii) == _dumps(
                value, False, ensure_ascii
            )


@pytest.mark.parametrize("options", OPTIONS)
def test_every_option_declines_what_json_must_decide(options: tuple[bool, bool]) -> None:
    assert native.canonical_json is not None

    class Text(str):
        pass

    looped: list[Any] = []
    looped.append(looped)
    deep: Any = "é"
    for _ in range(300):
        deep = [deep]
    huge = 10 ** (sys.get_int_max_str_digits() + 5)
    for value in [*NOT_JSON, Text("a"), {1: 2}, {None: 1}, looped, deep, [huge]]:
        assert native.canonical_json(value, *options) is None


def test_an_escape_is_found_at_every_place_in_a_plain_run() -> None:
    # Plain ASCII is copied 8 bytes at a time: an escape at each offset of a word, in
    # ASCII and Latin-1 strings, and output far past the encoder's first (stack) buffer.
    bytewise = [chr(code) for code in range(256)]
    for length in (7, 8, 9, 16, 17, 40):
        for at in range(length):
            for char in [*TRICKY_CHARS, *bytewise]:
                text = "p" * at + char + "q" * (length - at - 1)
                assert _canonical(text) == _reference(text), (length, at, char)
    big = {"k": "x" * 9000 + "é", "l": ["y" * 3000 + "\x1f"] * 5, "m": "z" * 20000}
    assert _canonical(big) == _reference(big)


def test_big_dicts_are_sorted_like_json() -> None:
    # Small dicts are insertion-sorted, big ones go through qsort: both by code point.
    rng = random.Random(5)
    alphabet = [*TRICKY_CHARS, "A", "b", "ÿ", "Ā"]
    for size in [31, 32, 33, 64, 500, 5000]:
        keys = {"".join(rng.choices(alphabet, k=rng.randint(0, 4))) for _ in range(size)}
        value = {key: index for index, key in enumerate(keys)}
        assert _canonical(value) == _reference(value)


def test_every_double_is_written_like_repr() -> None:
    rng = random.Random(20261122)
    doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(50_000)]
    doubles += [float(f"{rng.randint(1, 10**17)}e{rng.randint(-330, 310)}") for _ in range(20_000)]
    doubles += [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 5e-324, 1e16, 1e-5]
    assert _canonical(doubles) == _reference(doubles)


def test_ints_of_every_size_are_written_like_repr() -> None:
    ints = [0, -1, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64, 10**300, -(10**200)]
    ints += [random.Random(7).randint(-(2**70), 2**70) for _ in range(2_000)]
    assert _canonical(ints) == _reference(ints)


@pytest.mark.parametrize("value", NOT_JSON, ids=lambda v: type(v).__name__ + repr(v)[:30])
def test_anything_but_exact_json_types_is_declined(value: Any) -> None:
    assert _canonical(value) is None


def test_subclasses_and_odd_values_are_declined() -> None:
    class Text(str):
        pass

    class Number(int):
        pass

    for value in [Text("a"), {"k": Number(3)}, [1, {"k": {Text("k"): 1}}], {None: 1}, {1.5: 2}]:
        assert _canonical(value) is None


def test_an_int_too_long_for_repr_is_declined_for_json_to_refuse() -> None:
    # int.__repr__ refuses more than sys.get_int_max_str_digits() digits: json.dumps raises,
    # so the native encoder must not write anything for it.
    huge = 10 ** (sys.get_int_max_str_digits() + 5)
    assert _canonical([huge]) is None
    assert _reference([huge]) is ValueError


@pytest.mark.parametrize("depth", [0, 1, 150, 199, 200, 201, 400, 5000])
def test_deep_nesting_is_written_or_declined_never_a_crash(depth: int) -> None:
    value: Any = {"leaf": "é"}
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    got = _canonical(value)
    assert got is None or got == _reference(value)
    assert (got is None) == (depth >= 200)


def test_a_self_containing_value_is_declined_not_looped_forever() -> None:
    looped: list[Any] = []
    looped.append(looped)
    assert _canonical(looped) is None
    assert _reference(looped) is ValueError  # json.dumps: "Circular reference detected"


@settings(max_examples=1000, deadline=None)
@given(
    st.binary(max_size=80)
    | st.lists(st.sampled_from([b"1", b"9", b"0", b"x", b" ", b"-", b"."]), max_size=80).map(
        b"".join
    )
)
def test_digit_runs_are_found_like_the_pure_scan(data: bytes) -> None:
    assert native.has_long_digit_run is not None
    assert native.has_long_digit_run(data) == pure_has_long_digit_run(data)


@pytest.mark.parametrize("at", [0, 1, 17, 18, 19, 37, 100])
@pytest.mark.parametrize("length", [18, 19, 20, 40])
def test_digit_runs_at_every_offset(at: int, length: int) -> None:
    assert native.has_long_digit_run is not None
    for filler in (b"x", b"1234567x"):
        data = (filler * 30)[:at] + b" " + b"7" * length + b"]" + filler * 3
        assert native.has_long_digit_run(data) == pure_has_long_digit_run(data) == (length >= 19)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=st.sampled_from(TERMINAL_EDGES), max_size=16))
def test_terminal_controls_are_found_like_the_regex(text: str) -> None:
    assert native.has_terminal_controls is not None
    data = text.encode("utf-8", "surrogatepass")
    expected = _JSON_UNSAFE.search(text) is not None
    assert native.has_terminal_controls(data) == expected == pure_has_terminal_controls(data)
    for cut in range(len(data)):  # a sequence cut at the end of the buffer is not read past it
        native.has_terminal_controls(data[:cut])


def test_terminal_controls_are_found_at_every_place_in_plain_text() -> None:
    """The scan skips plain ASCII eight bytes at a time: a character to escape is found
    wherever it sits in a word, or in the bytes after the last whole word."""
    assert native.has_terminal_controls is not None
    for edge in TERMINAL_EDGES:
        for before in range(18):
            for after in (0, 1, 7, 8, 9):
                text = "~" * before + edge + "{" * after
                data = text.encode("utf-8")
                expected = _JSON_UNSAFE.search(text) is not None
                assert native.has_terminal_controls(data) == expected, (edge, before, after)


def test_the_pure_python_switch_turns_the_speedups_off() -> None:
    code = "from intentus_tui.core import native; print(native.AVAILABLE)"
    env = {**os.environ, "INTENTUS_TUI_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "False"


def test_listings_are_identical_with_and_without_the_speedups(tmp_path: Path) -> None:
    # What a user sees: the same ``inspect --list --json`` bytes for the hostile corpus
    # (damaged files, escapes, odd numbers) and a few hundred realistic records.
    records = build_corpus(tmp_path / "corpus").records_dir
    intents = ["Summarize", "Résumé “Q3” — 日本語 😀", "tab\there\x7f", "e-7 0.00001 1e-05"]
    for number in range(200):
        record = make_record(
            intent=intents[number % 4], documented=number % 3 == 0, replayable=number % 5 > 0
        )
        record["envelope"]["payload"] = {"score": number / 7e5, "n": number * 10**12}
        if number % 4:  # the header's hash follows the new payload (else: tampered)
            stable = record["envelope"]
            if record["header"]["envelopeHash"].startswith("sha256:"):
                stable = {k: v for k, v in stable.items() if k != "routingMetadata"}
            text = json.dumps(stable, sort_keys=True, separators=(",", ":"))
            digest = hashlib.sha256(text.encode()).hexdigest()
            prefix = "sha256:" if record["header"]["envelopeHash"].startswith("sha256:") else ""
            record["header"]["envelopeHash"] = prefix + digest
        name = f"{record['header']['executionId']}.json"
        (records / name).write_bytes(dump_json(record))
    outputs = []
    for pure in ("", "1"):
        env = {**os.environ, "INTENTUS_TUI_PURE_PYTHON": pure}
        argv = [sys.executable, "-m", "intentus_tui.cli", "inspect", "--list", "--json"]
        run = subprocess.run(
            [*argv, "--no-cache", str(records)], env=env, capture_output=True, check=False
        )
        assert run.returncode in (0, 1), run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    rows = json.loads(outputs[0])["executions"]
    statuses = {row["hash_status"] for row in rows}
    assert {"match", "mismatch", "unverifiable"} <= statuses


def _every_kind_of_entry(directory: Path) -> None:
    """Every kind of entry a record directory can hold."""
    (directory / "plain.json").write_bytes(b"{}")
    (directory / "empty.json").write_bytes(b"")
    (directory / "big.json").write_bytes(b"x" * 70_000)
    (directory / "dir.json").mkdir()
    os.mkfifo(directory / "fifo.json")
    (directory / "link.json").symlink_to("plain.json")
    (directory / "dangling.json").symlink_to("nowhere.json")
    (directory / "loop.json").symlink_to("loop.json")
    odd = os.fsdecode(b"caf\xe9-\xff.json")  # not UTF-8: a surrogate-escaped str
    (directory / odd).write_bytes(b"1")


def test_stat_stamps_are_the_python_loop(tmp_path: Path) -> None:
    # Every kind of entry a record directory can hold, and names that are not there.
    _every_kind_of_entry(tmp_path)
    names = [*sorted(os.listdir(tmp_path)), "vanished.json", "sub/../plain.json"]
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert native.stat_stamps is not None
        packed = native.stat_stamps(fd, names)
        expected = python_stamps_of(names, fd)
    finally:
        os.close(fd)
    assert packed == expected.tobytes()
    stamps = [tuple(expected[i : i + 4]) for i in range(0, len(expected), 4)]
    assert stamps[names.index("vanished.json")] == (-1, -1, -1, -1)
    assert stamps[names.index("link.json")] == stamps[names.index("plain.json")]
    assert stamps[names.index("big.json")][0] == 70_000


def test_stat_stamps_for_a_reader_are_the_python_loop(tmp_path: Path) -> None:
    """Given a reader, a file whose mode bits deny it has no stamp (never fresh), in C as
    in Python: by owner, by group (its own or a supplementary one) and as another."""
    names = []
    for i, mode in enumerate((0o644, 0o400, 0o040, 0o004, 0o000, 0o200)):
        path = tmp_path / f"m{i}.json"
        path.write_bytes(b"{}")
        path.chmod(mode)
        names.append(path.name)
    uid, gid = os.geteuid(), os.getegid()
    readers = [
        (uid, gid, ()),
        (uid + 1, gid, ()),
        (uid + 1, gid + 1, (gid,)),
        (uid + 1, gid + 1, ()),
    ]
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert native.stat_stamps is not None
        for reader in readers:
            expected = python_stamps_of(names, fd, reader)
            assert native.stat_stamps(fd, names, *reader) == expected.tobytes(), reader
            fresh = [expected[4 * i] != -1 for i in range(len(names))]
            owner, group = reader[0] == uid, gid in (reader[1], *reader[2])
            bits = 0o400 if owner else 0o040 if group else 0o004
            assert fresh == [bool(m & bits) for m in (0o644, 0o400, 0o040, 0o004, 0, 0o200)]
    finally:
        os.close(fd)


def test_stat_stamps_of_a_file_dated_after_2262_wrap_as_the_python_loop(tmp_path: Path) -> None:
    # tv_sec * 1e9 overflows signed 64 bits after 2262: both sides take it modulo 2**64.
    for name, ns in (("far.json", 10**19), ("farther.json", 2**64 + 5), ("old.json", -(10**18))):
        (tmp_path / name).write_bytes(b"{}")
        os.utime(tmp_path / name, ns=(ns, ns))
    names = sorted(os.listdir(tmp_path))
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert native.stat_stamps is not None
        assert native.stat_stamps(fd, names) == python_stamps_of(names, fd).tobytes()
    finally:
        os.close(fd)


def test_stat_stamps_own_their_names_while_the_gil_is_released(tmp_path: Path) -> None:
    # Another thread empties the list while the C loop stats outside the GIL: the loop
    # reads its own copy (a borrowed list item would be read after it was freed).
    import threading

    for n in range(2000):
        (tmp_path / f"r{n}.json").write_bytes(b"{}")
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert native.stat_stamps is not None
        for _ in range(5):
            names = [f"r{n}.json" for n in range(2000)]
            stop = threading.Event()

            def shrink(names: list[str] = names, stop: threading.Event = stop) -> None:
                while names and not stop.is_set():
                    names.pop()

            thread = threading.Thread(target=shrink)
            thread.start()
            packed = native.stat_stamps(fd, names)
            stop.set()
            thread.join()
            assert len(packed) % 32 == 0
    finally:
        os.close(fd)


def _written(directory: Path, timed: set[str]) -> dict[str, tuple[bytes, int, int]]:
    """Each entry's bytes (a regular file's), mode, and modification time where the batch
    set one (the others are whenever each side made them)."""
    out: dict[str, tuple[bytes, int, int]] = {}
    for name in sorted(os.listdir(directory)):
        path = directory / name
        st = os.lstat(path)
        data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
        out[name] = (data, st.st_mode, st.st_mtime_ns if name in timed else 0)
    return out


def _write_both(tmp_path: Path, prepare: Any, files: list[tuple[bytes, bytes, int]]) -> None:
    """The native writer and its Python definition on two copies of one directory: the
    same answers, the same files."""
    from intentus_tui.core.remote.mirror_writer import python_write_new_files

    answers = []
    for side in ("native", "python"):
        directory = tmp_path / side
        directory.mkdir()
        prepare(directory)
        fd = os.open(directory, os.O_RDONLY)
        try:
            if side == "native":
                assert native.write_new_files is not None
                answers.append(native.write_new_files(fd, files))
            else:
                answers.append(python_write_new_files(fd, files))
        finally:
            os.close(fd)
    assert answers[0] == answers[1]
    timed = {
        os.fsdecode(name)
        for (name, _, ns), code in zip(files, answers[0], strict=True)
        if ns >= 0 and not code
    }
    assert _written(tmp_path / "native", timed) == _written(tmp_path / "python", timed)


def test_write_new_files_is_the_python_loop(tmp_path: Path) -> None:
    import errno

    def prepare(directory: Path) -> None:
        (directory / "there.json").write_bytes(b"old")
        (directory / "link.json").symlink_to("there.json")
        (directory / "dangling.json").symlink_to("nowhere.json")
        (directory / "sub").mkdir()

    files = [
        (b"a.json", b'{"a": 1}', 1_700_000_000 * 10**9),
        (b"empty.json", b"", 5),
        (b"untimed.json", b"x" * 200_000, -1),
        (b"there.json", b"new", 0),  # exists: refused, the old copy stays
        (b"link.json", b"new", 0),  # a link is never followed nor replaced
        (b"dangling.json", b"new", 0),
        (b"sub/inner.json", b"new", 0),  # a path: only into a directory that exists
        (b"missing/inner.json", b"new", 0),
        (os.fsencode(os.fsdecode(b"caf\xe9.json")), b"\xff\x00", 2**62),
        (b"a.json", b"again", 0),  # the same name twice in one batch
    ]
    _write_both(tmp_path, prepare, files)
    codes = _native_codes(tmp_path, prepare, files)
    assert codes[0] == 0 and codes[-1] == errno.EEXIST  # a.json, then again
    by_name = {name: code for (name, _, _), code in zip(files, codes, strict=True)}
    assert by_name[b"there.json"] == errno.EEXIST
    assert by_name[b"missing/inner.json"] == errno.ENOENT
    assert by_name[b"link.json"] == errno.EEXIST  # never followed
    assert by_name[b"dangling.json"] == errno.EEXIST
    assert (tmp_path / "native" / "untimed.json").stat().st_size == 200_000
    assert (tmp_path / "native" / "a.json").stat().st_mtime_ns == 1_700_000_000 * 10**9
    assert (tmp_path / "native" / "there.json").read_bytes() == b"old"


def _native_codes(tmp_path: Path, prepare: Any, files: list[tuple[bytes, bytes, int]]) -> list[int]:
    """The native writer's answers in a fresh directory made by ``prepare``."""
    directory = tmp_path / "codes"
    directory.mkdir()
    prepare(directory)
    fd = os.open(directory, os.O_RDONLY)
    try:
        assert native.write_new_files is not None
        return native.write_new_files(fd, files)
    finally:
        os.close(fd)


def test_write_new_files_refuses_what_it_cannot_write_as_python_does(tmp_path: Path) -> None:
    assert native.write_new_files is not None
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        with pytest.raises(TypeError):
            native.write_new_files(fd, [("a.json", b"x", 0)])  # type: ignore[list-item]
        with pytest.raises(ValueError):
            native.write_new_files(fd, [(b"a\0.json", b"x", 0)])
        assert native.write_new_files(fd, []) == []
        assert native.write_new_files(-1, [(b"a.json", b"x", 0)]) != [0]
    finally:
        os.close(fd)
    assert os.listdir(tmp_path) == []


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.floats(min_value=0, max_value=2**33, allow_nan=False, allow_infinity=False))
def test_a_time_in_nanoseconds_is_what_utime_sets_from_seconds(
    tmp_path: Path, mtime: float
) -> None:
    # The writer takes each file's time in nanoseconds; the listing gives it in seconds:
    # the conversion must land on the nanosecond os.utime sets from the same float.
    from intentus_tui.core.remote.mirror_writer import nanoseconds

    path = tmp_path / "t.json"
    path.write_bytes(b"")
    os.utime(path, (mtime, mtime))
    assert nanoseconds(mtime) == path.stat().st_mtime_ns
    assert nanoseconds(None) == -1


def test_read_plain_file_is_the_python_read(tmp_path: Path) -> None:
    """Every kind of entry a record directory can hold: the same bytes and stamp, or the
    same refusal (None: the caller's careful reader takes over)."""
    _every_kind_of_entry(tmp_path)
    for name, ns in (("far.json", 10**19), ("farther.json", 2**64 + 5), ("old.json", -(10**18))):
        (tmp_path / name).write_bytes(b"{}")  # after 2262 (and before 1970): exact times
        os.utime(tmp_path / name, ns=(ns, ns))
    paths = [str(tmp_path / n) for n in sorted(os.listdir(tmp_path))]
    paths += [str(tmp_path / "vanished.json"), str(tmp_path / "nul\0.json"), str(tmp_path)]
    assert native.read_plain_file is not None
    for limit in (1 << 20, 1000):
        for path in paths:
            assert native.read_plain_file(path, limit) == python_read_plain_file(path, limit), path
    read = native.read_plain_file(str(tmp_path / "far.json"), 100)
    assert read is not None and read[2] == 10**19
    assert native.read_plain_file(str(tmp_path / "big.json"), 69_999) is None
    assert native.read_plain_file(str(tmp_path / "link.json"), 100) is None
    assert native.read_plain_file(str(tmp_path / "fifo.json"), 100) is None


def test_read_plain_file_refuses_a_file_that_grows_as_it_is_read(tmp_path: Path) -> None:
    """A file longer than its size when it was stat'ed (a writer appending): refused, as
    by the Python read, rather than cut at the old size."""
    import threading

    growing = tmp_path / "growing.json"
    growing.write_bytes(b"{" * (8 << 20))  # long enough that a read overlaps an append
    stop = threading.Event()

    def append() -> None:
        # Up to 64 MB: no read takes a file of hundreds of megabytes (unbounded, the test
        # took 8 s).
        with growing.open("ab") as out:
            while not stop.is_set() and out.tell() < 64 << 20:
                out.write(b"x" * 4096)
                out.flush()

    thread = threading.Thread(target=append)
    thread.start()
    try:
        assert native.read_plain_file is not None
        seen = []
        while len(seen) < 200 and (not seen or thread.is_alive()):
            seen.append(native.read_plain_file(str(growing), 1 << 30))
    finally:
        stop.set()
        thread.join()
    assert None in seen  # a read caught it growing
    for read in seen:
        assert read is None or len(read[0]) == read[1]
