"""IntentusNet execution records: the model and a tolerant loader.

One model holds both the form IntentusNet 1.3.0 really writes (UUID ids, bare-hex hash,
``{agent, strategy}`` event payloads) and the documented form (``exec-…`` ids, ``sha256:``
hash, richer event payloads). Every model object keeps the JSON object it came from in
``raw``, so unknown fields and unknown event types survive and ``to_json()`` round-trips.
Typed accessors never raise on wrong types: they answer ``None`` (or an empty value) and
leave the complaint to ``verify.check_structure``.

``load_record_file`` turns any path into a ``LoadResult``, never an exception: a parsed
record, a salvaged one (truncated or damaged JSON: every complete top-level section and
every complete event before the damage, plus where and why the file breaks), or a
classified failure. A file too big to read whole is listed from its head (``head``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from json.scanner import make_scanner
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from intentus_tui.core.fsio import (
    NotRegularFileError,
    OutsideLinkError,
    read_regular_file,
)
from intentus_tui.core.model import CANNOT_READ, DAMAGED_RECORD, LoadStatus
from intentus_tui.core.native import has_long_digit_run as _native_digit_run

RECORD_SUFFIX = ".json"
WAL_SUFFIX = ".wal"  # a write-ahead log: see core.wal
TEMP_SUFFIXES = (".tmp", ".temp", ".partial", ".swp")
RECORD_SECTIONS = ("header", "envelope", "routerDecision", "events", "finalResponse")
# Above this size a file is still loaded whole on request, but the index streams its head.
HUGE_FILE_BYTES = 16 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
# Every ASCII digit becomes "0": a run of 19 digits is then a plain substring search, which
# is ~50x faster than the regex \d{19} on typical records.
_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_NINETEEN_ZEROS = b"0" * 19


def has_long_digit_run(data: bytes) -> bool:
    """Could this text hold an integer orjson would round (beyond 64 bits)?"""
    if _native_digit_run is not None:
        return _native_digit_run(data)
    return pure_has_long_digit_run(data)


def pure_has_long_digit_run(data: bytes) -> bool:
    """``has_long_digit_run`` in Python (the definition; the native twin skips ahead)."""
    return _NINETEEN_ZEROS in data.translate(_DIGITS_TO_ZERO)


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _as_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True, slots=True)
class ExecutionHeader:
    """``header``: identity, creation time, envelope hash, replayability."""

    raw: Mapping[str, Any]

    @property
    def execution_id(self) -> str | None:
        return _as_str(self.raw.get("executionId"))

    @property
    def created_utc_iso(self) -> str | None:
        return _as_str(self.raw.get("createdUtcIso"))

    @property
    def envelope_hash(self) -> str | None:
        return _as_str(self.raw.get("envelopeHash"))

    @property
    def replayable(self) -> bool | None:
        value = self.raw.get("replayable")
        return value if isinstance(value, bool) else None

    @property
    def replayable_reason(self) -> str | None:
        return _as_str(self.raw.get("replayableReason"))


@dataclass(frozen=True, slots=True)
class ExecutionEvent:
    """One event ``{seq, type, payload}``; unknown types and extra keys are kept."""

    raw: Mapping[str, Any]

    @property
    def seq(self) -> int | None:
        return _as_int(self.raw.get("seq"))

    @property
    def type(self) -> str:
        value = self.raw.get("type")
        return value if isinstance(value, str) else ("" if value is None else str(value))

    @property
    def payload(self) -> dict[str, Any]:
        return _as_dict(self.raw.get("payload"))

    @property
    def agent(self) -> str | None:
        return _as_str(self.payload.get("agent"))


@dataclass(frozen=True, slots=True)
class ExecutionRecord:
    """A whole record. ``raw`` is the top-level JSON object as it was read."""

    raw: Mapping[str, Any]
    header: ExecutionHeader
    events: tuple[ExecutionEvent, ...]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExecutionRecord:
        events_raw = data.get("events")
        events = tuple(
            ExecutionEvent(e if isinstance(e, dict) else {"payload": e})
            for e in (events_raw if isinstance(events_raw, list) else [])
        )
        return cls(raw=data, header=ExecutionHeader(_as_dict(data.get("header"))), events=events)

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw)

    def has(self, section: str) -> bool:
        return section in self.raw

    @property
    def envelope(self) -> Any:
        return self.raw.get("envelope")

    @property
    def router_decision(self) -> Any:
        return self.raw.get("routerDecision")

    @property
    def final_response(self) -> Any:
        return self.raw.get("finalResponse")

    @property
    def execution_id(self) -> str | None:
        return self.header.execution_id

    @property
    def intent_name(self) -> str | None:
        intent = _as_dict(self.envelope).get("intent")
        if isinstance(intent, dict):
            return _as_str(intent.get("name"))
        return _as_str(intent)

    @property
    def strategy(self) -> str | None:
        return _as_str(_as_dict(_as_dict(self.envelope).get("routing")).get("strategy"))

    @property
    def record_form(self) -> str:
        """``runtime`` (what 1.3.0 writes), ``documented`` (a ``sha256:``-prefixed hash, as
        IntentusNet's documentation describes records) or ``unknown``."""
        stored = self.header.envelope_hash or ""
        if stored.startswith("sha256:"):
            return "documented"
        if len(stored) == 64:
            return "runtime"
        return "unknown"


class Damage(NamedTuple):
    """Where a file stops being valid JSON, and what the parser expected there."""

    offset: int  # byte offset into the file
    line: int
    column: int
    expected: str
    truncated: bool  # the damage is at the end of the file: it was cut short

    def describe(self) -> str:
        where = f"byte {self.offset} (line {self.line}, column {self.column})"
        if self.truncated:
            return f"file ends at {where}: truncated, {self.expected.lower()}"
        return f"invalid JSON at {where}: {self.expected.lower()}"


@dataclass(frozen=True, slots=True)
class LoadResult:
    """The outcome of reading one file. Never raised, always returned."""

    path: Path
    status: LoadStatus
    message: str
    record: ExecutionRecord | None = None
    damage: Damage | None = None
    recovered: tuple[str, ...] = ()  # top-level sections recovered whole
    partial: tuple[str, ...] = ()  # sections recovered in part (events before the damage)
    size: int = 0
    mtime_ns: int = 0
    notes: tuple[str, ...] = field(default=())
    # (size, mtime_ns, ctime_ns, inode) of the file as read: the index cache's key
    stamp: tuple[int, int, int, int] | None = None
    # HEAD_ONLY: how the file ends: "final_response", "no_final_response" or "truncated"
    tail_hint: str | None = None
    # SALVAGED inside an event: the status of the final response that event began to write,
    # as written (IntentusNet 1.3.0 dies writing an error response's error: what it wrote
    # before says how the execution ended), else None
    cut_final_status: Any = None

    @property
    def why_not_read(self) -> str:
        """What kept a file from being read, without the loader's "Cannot read: " (after
        "not read", or "cannot be read", it would say it twice); the message otherwise."""
        return self.message.removeprefix(CANNOT_READ)

    @property
    def stem(self) -> str:
        """The execution id the file name promises (``<id>.json``, or ``<id>.wal``)."""
        name = self.path.name
        for suffix in (RECORD_SUFFIX, WAL_SUFFIX):
            if name.endswith(suffix):
                return name[: -len(suffix)]
        return name


def is_record_name(name: str) -> bool:
    """``*.json`` files are candidate records; temp and hidden files are not."""
    return name.endswith(RECORD_SUFFIX) and not name.startswith(".")


def is_temp_name(name: str) -> bool:
    return name.endswith(TEMP_SUFFIXES)


# --------------------------------------------------------------------------- parsing


def parse_json_text(text: str) -> Any:
    """Parse exactly like Python's json (NaN/Infinity, big ints), with orjson when that is safe."""
    if not has_long_digit_run(text.encode("utf-8", "surrogatepass")):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    # orjson refuses NaN/Infinity and deep nesting and rounds huge ints: the stdlib decides.
    return json.loads(text)


_LITERALS = ("null", "true", "false", "NaN", "Infinity", "-Infinity")
_WHITESPACE = re.compile(r"[ \t\n\r]*")  # json's own
_NUMBER_PREFIX = re.compile(r"-?[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]*)?")
# What json leaves after "Invalid \uXXXX escape" when the file ends inside one (or a pair).
_CUT_ESCAPE = re.compile(r"u[0-9a-fA-F]{0,4}(?:\\(?:u[0-9a-fA-F]{0,3})?)?")


def json_damage(text: str, error: json.JSONDecodeError, size: int | None = None) -> Damage:
    """Where ``error`` (json's, parsing ``text``) finds ``text`` broken, in a record's words
    (``Damage.describe``: "file ends at byte N (line L, column C): truncated, ...")."""
    return _damage_at(text, error.pos, error.msg, size, error)


def _is_cut_short(rest: str) -> bool:
    """Is what follows the error only the start of a token that the end of file interrupted?"""
    if not rest:
        return True
    if len(rest) > 12:
        return False
    return any(lit.startswith(rest) for lit in _LITERALS) or bool(_NUMBER_PREFIX.fullmatch(rest))


def _damage_at(
    text: str,
    pos: int,
    message: str,
    size: int | None = None,
    error: json.JSONDecodeError | None = None,
) -> Damage:
    """``size``: the length of ``text`` in UTF-8, when known; ``error``: the error that
    reported ``pos`` in ``text``, whose line and column are then not counted again."""
    # json's message leads into the position it is printed with ("Invalid control
    # character at: line 12 column 19"), which is said apart here.
    message = message.removesuffix(" at")
    if message.startswith("Unterminated string"):
        # The string runs to the end of the file: the break is the end, not the opening quote.
        pos, message = len(text), "Expecting '\"' to close a string"
    pos = max(0, min(pos, len(text)))
    # An ASCII text has one byte per character (``isascii`` is free on a str); else the
    # bytes before pos are counted, or (when that is shorter, as at the end of a cut file)
    # the text's size less those after it.
    if text.isascii():
        offset = pos
    elif size is not None and pos > len(text) // 2:
        offset = size - len(text[pos:].encode("utf-8", "surrogatepass"))
    else:
        offset = len(text[:pos].encode("utf-8", "surrogatepass"))
    if error is not None and error.doc is text and error.pos == pos:
        line, column = error.lineno, error.colno  # json counted them the same way
    else:
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    rest = text[pos:].strip()
    cut_escape = message.startswith("Invalid \\u") and _CUT_ESCAPE.fullmatch(rest) is not None
    truncated = cut_escape or _is_cut_short(rest)
    return Damage(offset=offset, line=line, column=column, expected=message, truncated=truncated)


# What raw_decode calls, unwrapped (typeshed mistypes the argument). It keeps no state
# between calls (its memo is cleared after each), so one serves every salvage.
_SCAN = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]
_WHITESPACE_CHARS = (" ", "\t", "\n", "\r")


class Salvage:
    """Walk a damaged top-level object section by section with the stdlib decoder.

    Written by hand (rather than with ijson) because a post-mortem needs to know exactly
    which sections survived whole, which events survived inside a cut ``events`` array,
    and the byte offset and expectation where parsing stopped.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.scan = _SCAN
        self.pos = 0
        self.found: dict[str, Any] = {}
        self.in_events = False  # inside the events array: a break there leaves it partial
        self.element_start = 0  # where the event being read begins (inside the array)

    def _skip_ws(self) -> None:
        if self.text[self.pos : self.pos + 1] in _WHITESPACE_CHARS:  # half the calls: none
            self.pos = _WHITESPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def _expect(self, char: str, what: str) -> None:
        self._skip_ws()
        if self.pos >= len(self.text) or self.text[self.pos] != char:
            raise json.JSONDecodeError(f"Expecting {what}", self.text, self.pos)
        self.pos += 1

    def _value(self) -> Any:
        self._skip_ws()
        try:
            value, self.pos = self.scan(self.text, self.pos)
        except StopIteration as err:
            raise json.JSONDecodeError("Expecting value", self.text, err.value) from None
        return value

    def _events(self) -> None:
        """Parse an events array element by element, keeping the complete ones on failure."""
        self._expect("[", "'['")
        events: list[Any] = []
        self.found["events"] = events
        self.in_events = True
        self._skip_ws()
        if not self.text.startswith("]", self.pos):
            self.element_start = self.pos
            events.append(self._value())
        self._more_events(events)

    def _more_events(self, events: list[Any]) -> None:
        """The events array after an element: more elements, then its end."""
        while True:
            self._skip_ws()
            if not self.text.startswith(",", self.pos):
                break
            self.pos += 1
            self._skip_ws()
            self.element_start = self.pos
            events.append(self._value())
        self._expect("]", "',' delimiter")  # json's words for this place
        self.in_events = False

    def run(self, resume: Resume | None = None) -> json.JSONDecodeError:
        """Recover what precedes the damage; return the error that stopped it.

        ``resume``: a place in the text and what the walk would have found before it
        (``_resume_point``): the walk goes on from there.
        """
        try:
            first = resume is None
            if resume is None:
                self._expect("{", "'{'")
            else:
                self.pos, self.found, events = resume
                if events is not None:  # inside the events array, after a whole element
                    self.found["events"] = events
                    self.in_events = True
                    self._more_events(events)
            while True:
                self._skip_ws()
                if not first:
                    if self.text.startswith("}", self.pos):
                        self.pos += 1
                        raise json.JSONDecodeError("Extra data", self.text, self.pos)
                    self._expect(",", "',' delimiter")
                    self._skip_ws()
                elif self.text.startswith("}", self.pos):
                    raise json.JSONDecodeError("Extra data", self.text, self.pos + 1)
                first = False
                if not self.text.startswith('"', self.pos):
                    raise json.JSONDecodeError(
                        "Expecting property name enclosed in double quotes", self.text, self.pos
                    )
                key = self._value()
                self._expect(":", "':' delimiter")
                self._skip_ws()
                if key == "events" and self.text.startswith("[", self.pos):
                    self._events()
                else:
                    self.found[key] = self._value()
        except json.JSONDecodeError as exc:
            return _detached(exc)
        except RecursionError:
            return _detached(
                json.JSONDecodeError("Nesting too deep to recover", self.text, self.pos)
            )
        except ValueError as exc:  # e.g. an integer beyond Python's digit limit
            why = "a number too long to read safely" if "digits" in str(exc) else str(exc)
            return _detached(json.JSONDecodeError(f"Unreadable value: {why}", self.text, self.pos))


# Where the walk may resume (``Salvage.run``): the place, the members found before it,
# and the whole events before it when it is inside the events array.
Resume = tuple[int, dict[str, Any], list[Any] | None]
# Between two members of the top-level object, and between two events, as
# ``json.dumps(..., indent=2)`` writes them (IntentusNet 1.3.0's writer).
_MEMBER_SEPARATOR = ',\n  "'
_EVENTS_START = '"events": ['
_EVENT_SEPARATOR = ",\n    {"
_MEMBER_SEPARATOR_UTF8 = _MEMBER_SEPARATOR.encode()
_EVENT_SEPARATOR_UTF8 = _EVENT_SEPARATOR.encode()


def _resume_point(text: str, data: bytes | None = None) -> Resume | None:
    """Where the walk over a record cut short can start instead of at its beginning:
    after the last whole member of the top-level object, or after the last whole event
    when the cut is inside the events array (1.3.0 dies writing an event's error). What
    precedes is parsed by orjson in one go; the walk reads only the rest.

    Safe because it is checked: the text up to that comma, closed by a brace (or a
    bracket), must parse as one object (or array). Then the comma sits at that level (a
    raw newline is never inside a string), orjson read exactly the values the walk would
    have read (the stdlib parser accepts all it does; integers of 19 digits or more never
    reach here; a repeated key keeps its first place and last value in both), and the
    walk resumes right after them. A truncated 1.3.0 record: 117 us, now 85.

    ``data``: ``text`` as UTF-8, when the caller has it. orjson then parses the same
    pieces from it, as they are (a non-ASCII str is encoded first, for each piece): an
    ASCII separator's last occurrence (after a given place) is the same one in both.
    """
    cut = text.rfind(_MEMBER_SEPARATOR)
    if cut < 0:
        return None
    raw = data if data is not None and not text.isascii() else None  # ASCII: read as it is
    raw_cut = cut if raw is None else raw.rfind(_MEMBER_SEPARATOR_UTF8)
    members = _loads_or_none(text[:cut] + "}" if raw is None else raw[:raw_cut] + b"}")
    if type(members) is not dict:
        return None
    start = cut + len(_MEMBER_SEPARATOR) - 1
    if text.startswith(_EVENTS_START, start):
        opening = start + len(_EVENTS_START) - 1
        inside = text.rfind(_EVENT_SEPARATOR, opening)
        if inside > 0:
            if raw is None:
                events = _loads_or_none(text[opening:inside] + "]")
            else:  # the same place in bytes: the separator and the events' start are ASCII
                raw_opening = raw_cut + (opening - cut)
                raw_inside = raw.rfind(_EVENT_SEPARATOR_UTF8, raw_opening)
                events = _loads_or_none(raw[raw_opening:raw_inside] + b"]")
            if type(events) is list:
                return inside, members, events
    return cut, members, None


def _loads_or_none(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return None


def _detached(error: json.JSONDecodeError) -> json.JSONDecodeError:
    """``error`` without its traceback and context: their frames lead back to the caller
    that keeps it, a cycle only the cyclic GC would free (and a scan runs with it off)."""
    error.__context__ = None
    return error.with_traceback(None)


def _salvage(
    path: Path,
    text: str,
    err: json.JSONDecodeError | None,
    base: dict[str, Any],
    data: bytes | None = None,
) -> LoadResult:
    """``err``: the full parse's error, or None when it failed without a position.
    ``data``: the UTF-8 bytes ``text`` was decoded from."""
    salvager = Salvage(text)
    stop = salvager.run(_resume_point(text, data) if err is None else None)
    # The full parse knows best where the file breaks; the walk only decides what survived.
    where = err if err is not None else stop
    size = None if data is None else len(data)
    damage = _damage_at(text, where.pos, where.msg, size, where)
    found = salvager.found
    if not any(k in found for k in RECORD_SECTIONS):
        return LoadResult(
            path=path,
            status=LoadStatus.NOT_JSON,
            message=f"Not a readable record: {damage.describe()}",
            damage=damage,
            **base,
        )
    partial = ("events",) if salvager.in_events else ()
    recovered = tuple(k for k in found if k not in partial)
    got = ", ".join(recovered) or "nothing whole"
    whole = len(found["events"]) if partial else 0
    extra = (
        f"; {whole} complete event{'' if whole == 1 else 's'} before the break" if partial else ""
    )
    cut_final_status = None
    if partial and damage.truncated:  # the file ends inside an event: what did it begin?
        cut = scalars_before_the_end(text[salvager.element_start :])
        if cut.get("type") == "FINAL_RESPONSE":
            cut_final_status = cut.get("payload.status")
    return LoadResult(
        path=path,
        status=LoadStatus.SALVAGED,
        message=f"{DAMAGED_RECORD}{damage.describe()}. Recovered {got}{extra}.",
        record=ExecutionRecord.from_json(found),
        damage=damage,
        recovered=recovered,
        partial=partial,
        cut_final_status=cut_final_status,
        **base,
    )


def scalars_before_the_end(text: str) -> dict[str, Any]:
    """The scalar values of a JSON value cut short, by their dotted path (``payload.status``),
    as far as they were written whole: a streaming parser reads up to the end, where it
    stops (the first of a repeated key kept). Empty for text that is not such a value."""
    import ijson  # only a file cut short inside an event needs it (13 ms to import)

    found: dict[str, Any] = {}
    try:
        # Bytes as they are, not a file: ijson then skips asking whether a file is async
        # (30 us a cut file, now 19).
        for prefix, event, value in ijson.parse(text.encode("utf-8")):
            if event in _SCALAR_EVENTS and prefix:
                found.setdefault(prefix, value)
    except (ijson.JSONError, ijson.IncompleteJSONError):
        pass  # the end: what came before it is all there is
    return found


_SCALAR_EVENTS = frozenset({"string", "number", "boolean", "null"})


def classify_value(path: Path, value: Any, base: dict[str, Any]) -> LoadResult:
    """What a parsed file is: a record, or valid JSON that is not one. ``base``: the
    ``LoadResult`` fields about the file itself (size, mtime_ns, stamp)."""
    if not isinstance(value, dict):
        kind = json_kind(value)
        message = (
            f"Not valid JSON: a bare {kind} token"
            if kind in _NON_FINITE
            else f"Valid JSON, but {_a(kind)}, not an execution record object"
        )
        return LoadResult(path=path, status=LoadStatus.NOT_RECORD, message=message, **base)
    if not any(k in value for k in RECORD_SECTIONS):
        return LoadResult(
            path=path,
            status=LoadStatus.NOT_RECORD,
            message=f"Valid JSON object, but not an execution record{_what_else(value)}",
            **base,
        )
    return LoadResult(
        path=path,
        status=LoadStatus.OK,
        message="Record parsed",
        record=ExecutionRecord.from_json(value),
        **base,
    )


def _what_else(value: dict[str, Any]) -> str:
    if value.get("format") == "verist-baseline@1" or {"workflowId", "artifacts"} <= value.keys():
        return " (it looks like a Verist snapshot or baseline)"
    if {"entry_type", "entry_hash"} <= value.keys():
        return " (it looks like a write-ahead-log entry)"
    keys = ", ".join(sorted(map(str, value))[:5])
    return f" (keys: {keys})" if keys else " (empty object)"


def load_record_bytes(
    path: Path,
    data: bytes,
    *,
    size: int = 0,
    mtime_ns: int = 0,
    stamp: tuple[int, int, int, int] | None = None,
    orjson_error: str | None = None,
) -> LoadResult:
    """Classify and parse bytes read from ``path``. Never raises.

    ``orjson_error``: the caller already had ``orjson.loads`` refuse ``data`` with this
    message (it is not tried again).
    """
    base: dict[str, Any] = {"size": size or len(data), "mtime_ns": mtime_ns, "stamp": stamp}
    # Fast path for the common case: valid UTF-8 JSON that orjson accepts as it is. orjson
    # reads integers beyond 64 bits as floats (silently changing the value and its hash),
    # so any run of 19+ digits sends the file to the stdlib parser instead.
    if orjson_error is None and not has_long_digit_run(data):
        try:
            return classify_value(path, orjson.loads(data), base)
        except orjson.JSONDecodeError as exc:
            orjson_error = str(exc)
    if not data.strip():
        what = "empty" if not data else "whitespace only"
        return LoadResult(path=path, status=LoadStatus.EMPTY, message=f"File is {what}", **base)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
        base["notes"] = ("starts with a UTF-8 byte-order mark (IntentusNet never writes one)",)
    utf8 = data  # what the text below is decoded from
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data":
            return _load_non_utf8(path, data, exc, base)
        # Cut inside a multi-byte character: salvage it like a cut just before that character.
        utf8 = data[: exc.start]
        text = utf8.decode("utf-8")
        base["notes"] = (*base.get("notes", ()), "ends inside a UTF-8 character: cut short")
    if _cut_short_object(data, orjson_error):
        # The whole parse would fail at the end too, where the walk below stops: skip it.
        return _salvage(path, text, None, base, utf8)
    try:
        value = json.loads(text)  # what orjson refuses: NaN/Infinity, huge ints, deep nesting
    except json.JSONDecodeError as err:
        return _salvage(path, text, err, base, utf8)
    except RecursionError:
        return LoadResult(
            path=path,
            status=LoadStatus.TOO_DEEP,
            message="JSON nested too deeply to parse safely",
            **base,
        )
    except ValueError:  # e.g. an integer beyond int()'s digit limit: salvage around it
        return _salvage(path, text, None, base, utf8)
    return classify_value(path, value, base)


def _cut_short_object(data: bytes, orjson_error: str | None) -> bool:
    """Is ``data`` an object that orjson read to the very end without a fault (so the
    stdlib parser would too: it accepts all orjson does), only to find it cut short?

    Then the section walk (``Salvage``) stops where the whole parse would, with the same
    message. Shallow nesting only: near Python's recursion limit the two could differ.
    """
    return (
        orjson_error is not None
        and orjson_error.startswith("unexpected end of data")
        and data.lstrip(b" \t\r\n").startswith(b"{")
        and data.count(b"{") + data.count(b"[") < _SHALLOW
    )


_SHALLOW = 500
_NON_FINITE = ("NaN", "Infinity", "-Infinity")  # Python's parser takes them; JSON has none


def json_kind(value: Any) -> str:
    """The JSON name of a parsed value's kind (``null``, ``boolean``, ``number``,
    ``string``, ``array``, ``object``; ``NaN``, ``Infinity`` for the tokens that are not
    JSON), as a message to an operator names it: never Python's type names."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    kinds = ((int | float, "number"), (str, "string"), (list, "array"), (dict, "object"))
    return next((name for kind, name in kinds if isinstance(value, kind)), type(value).__name__)


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def not_an_object(value: Any) -> str | None:
    """What a section written as an object or null (``finalResponse``) is instead
    (``a number``); None when it is an object or null."""
    if value is None or isinstance(value, dict):
        return None
    return _a(json_kind(value))


def _load_non_utf8(
    path: Path, data: bytes, exc: UnicodeDecodeError, base: dict[str, Any]
) -> LoadResult:
    from intentus_tui.core.activegraph.store import SQLITE_MAGIC

    if data.startswith(SQLITE_MAGIC):  # no damaged text: a database (it said "Not UTF-8")
        return LoadResult(
            path=path,
            status=LoadStatus.NOT_RECORD,
            message="Binary SQLite database, not an execution record (an Active Graph run store "
            f"is one: diff {path.name}#RUN_ID compares its runs)",
            **base,
        )
    where = f"invalid UTF-8 at byte {exc.start}"
    text = data.decode("utf-8", errors="replace")
    try:
        value = parse_json_text(text)
    except (ValueError, RecursionError):
        return LoadResult(
            path=path,
            status=LoadStatus.NOT_UTF8,
            message=f"Not UTF-8 text: {where}",
            **base,
        )
    if isinstance(value, dict) and any(k in value for k in RECORD_SECTIONS):
        return LoadResult(
            path=path,
            status=LoadStatus.SALVAGED,
            message=f"{DAMAGED_RECORD}{where}; bad bytes shown as U+FFFD",
            record=ExecutionRecord.from_json(value),
            recovered=tuple(k for k in value if k in RECORD_SECTIONS),
            damage=Damage(exc.start, 0, 0, "valid UTF-8", truncated=False),
            **base,
        )
    return LoadResult(
        path=path, status=LoadStatus.NOT_UTF8, message=f"Not UTF-8 text: {where}", **base
    )


LINK_LOOPS = "the link loops (it leads back to itself)"
LINK_LEADS_NOWHERE = "the link leads nowhere (its target does not exist)"


def broken_link(path: str | os.PathLike[str]) -> str:
    """What is wrong with the link ``path`` that cannot be followed, as a listing says it."""
    try:
        os.stat(path)
    except OSError as exc:
        return LINK_LOOPS if exc.errno == errno.ELOOP else LINK_LEADS_NOWHERE
    return "the link loops or leads nowhere"  # followed now: it was mended meanwhile


def stat_failure(path: Path, st: os.stat_result | None, err: OSError | None) -> LoadResult | None:
    """A ``LoadResult`` for paths that cannot be read as a regular file, else ``None``."""
    if err is not None:
        reason = err.strerror or type(err).__name__
        if err.errno == errno.ELOOP:
            reason = LINK_LOOPS
        elif isinstance(err, FileNotFoundError):
            reason = (
                LINK_LEADS_NOWHERE
                if os.path.islink(path)
                else "file vanished (deleted or renamed while being read)"
            )
        return LoadResult(path=path, status=LoadStatus.UNREADABLE, message=f"{CANNOT_READ}{reason}")
    assert st is not None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        if stat.S_ISFIFO(st.st_mode):
            kind = "a FIFO (named pipe)"
        elif stat.S_ISSOCK(st.st_mode):
            kind = "a socket"
        # "Named like a record" of a ``*.json`` only: a FIFO named ``pipe.txt`` is not
        named = "Named like a record but is" if is_record_name(path.name) else "Not a record:"
        return LoadResult(
            path=path,
            status=LoadStatus.NOT_A_FILE,
            message=f"{named} {kind}",
            mtime_ns=st.st_mtime_ns,
        )
    return None


def load_record_file(path: str | os.PathLike[str]) -> LoadResult:
    """Read and classify one file. Never raises.

    One ``open`` + ``fstat`` decides what the path is (no separate ``stat``: the index
    calls this for every file, and the file may change between two calls anyway).
    """
    p = Path(path)
    try:
        data, st = read_regular_file(p)
    except NotRegularFileError:
        try:
            st = os.stat(p)
        except OSError as err:
            return unreadable_result(p, err)
        failure = stat_failure(p, st, None)
        return failure or LoadResult(p, LoadStatus.NOT_A_FILE, "Not a regular file")
    except OSError as err:
        return unreadable_result(p, err)
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return load_record_bytes(p, data, size=st.st_size, mtime_ns=st.st_mtime_ns, stamp=stamp)


def why_unreadable(path: Path, err: OSError) -> str:
    """Why ``path`` could not be read, in the words the list and ``verify`` use for it
    (``Refused: symlink to …, outside the directory: not followed``)."""
    return unreadable_result(path, err).why_not_read


def unreadable_result(path: Path, err: OSError) -> LoadResult:
    if isinstance(err, OutsideLinkError):
        return LoadResult(path, LoadStatus.UNREADABLE, f"Refused: {err.strerror}")
    if err.errno == errno.EISDIR:
        return LoadResult(path, LoadStatus.NOT_A_FILE, "Named like a record but is a directory")
    if err.errno == errno.ENXIO:  # what opening a socket says: it is no file to read
        with contextlib.suppress(OSError):
            if (failure := stat_failure(path, os.stat(path), None)) is not None:
                return failure
    return stat_failure(path, None, err) or LoadResult(path, LoadStatus.UNREADABLE, str(err))


def dump_record_json(value: Any) -> bytes:
    """Serialize a record the way IntentusNet writes it (indent=2, UTF-8, not ASCII-escaped)."""
    return json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8", "surrogatepass")
