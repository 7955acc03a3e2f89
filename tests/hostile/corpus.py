"""A directory of every hostile file the debugger must survive, with what each should become.

``build_corpus(root)`` writes an ``.intentusnet`` tree (``records/``, ``wal/``) plus an
``outside/`` directory that symlinks point into, and returns a ``Corpus`` naming every file
and the load statuses it may be classified as. The core and CLI tests walk it; the TUI tests
reuse it for a Pilot walk (open the debugger on ``corpus.intentusnet`` and visit every row).

Nothing here is random: the same tree every time.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry
from tests.factories import chained_wal, make_record

S = LoadStatus

# Strings a terminal or a markup parser would act on. Every one must come out inert.
HOSTILE_STRINGS: tuple[str, ...] = (
    "[b]bold[/b]",
    "[/x] closes nothing",
    "[$accent]themed[/]",
    "[link=https://evil.example/]click me[/link]",
    "[@click=app.quit]quit[/]",
    "[red on blue]styled[/] [B]x [ bold]y",
    "\x1b[2J\x1b[Hcleared",  # clear screen, cursor home
    "\x1b]0;pwned title\x07",  # OSC 0: set the window title
    "\x1b]8;;https://evil.example/\x1b\\hyperlink\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x1b[31mred\x1b[0m \x1b[?1049h alt screen",
    "\x9b31mC1 CSI\x9b0m \x9d0;c1 osc\x9c \x85nel",  # C1 controls
    "evil\u202etxt.exe",  # right-to-left override
    "\u2066isolate\u2069 \u200fmark",  # bidi isolates and marks
    "zero\u200bwidth\u200c\u200d\ufeffjoin\u2060",  # zero-width characters
    "bell\x07 back\x08space\x7f del\rcarriage\x00nul",
    "tab\tnew\nline",
)

# A code point from each family that must never reach a terminal raw.
FORBIDDEN_RAW = frozenset(
    [chr(c) for c in range(0x20) if c not in (0x09, 0x0A)]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + list("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e")
    + list("\u2060\u2066\u2067\u2068\u2069\ufeff")
)

DEEP = 100_000  # nesting depth of the deep files
BIG_DIGITS = 10_000  # digits of the big integers
HUGE_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class HostileFile:
    """One file of the corpus and the classifications a loader may give it."""

    name: str  # file name inside its directory
    why: str
    statuses: frozenset[str]  # LoadStatus values (records) or WalLog.file_status values (WALs)


@dataclass
class Corpus:
    root: Path
    intentusnet: Path  # open the debugger here
    records_dir: Path
    wal_dir: Path
    outside: Path  # a directory next to the tree: symlinks point here, nothing may be written
    records: dict[str, HostileFile] = field(default_factory=dict)
    wals: dict[str, HostileFile] = field(default_factory=dict)
    hostile_ids: list[str] = field(default_factory=list)  # ids whose file names are hostile

    def record_paths(self) -> Iterator[Path]:
        for name in sorted(self.records):
            yield self.records_dir / name

    def wal_paths(self) -> Iterator[Path]:
        for name in sorted(self.wals):
            yield self.wal_dir / name


def safe_name(text: str) -> str:
    """``text`` made usable as a file name (no ``/``, NUL or leading dot); the rest stays hostile."""
    name = text.replace("/", "∕").replace("\x00", "␀").replace("\\", "⧵")
    return name.lstrip(".") or "dot"


def hostile_record(text: str, execution_id: str) -> dict[str, Any]:
    """A 1.3.0-shaped record with ``text`` in its id, intent, agents, payloads and errors."""
    record = make_record(
        execution_id=execution_id,
        agents=((f"{text}-a", "error"), (f"{text}-b", "ok")),
        intent=f"{text} intent",
        final_status="error",
    )
    record["envelope"]["payload"] = {"text": text, text: [text, {"nested": text}]}
    for event in record["events"]:
        payload = event["payload"]
        if event["type"] == "AGENT_ATTEMPT_END" and "exception" in payload:
            payload["exception"] = f"{text} exception"
        payload["note"] = text
    record["events"].append(
        {"seq": len(record["events"]) + 1, "type": f"{text}_EVENT", "payload": {text: text}}
    )
    record["routerDecision"]["reason"] = text
    record["finalResponse"]["error"] = {"code": text, "message": f"{text} message"}
    record["finalResponse"]["payload"] = {"answer": text}
    record["finalResponse"]["status"] = text
    record["header"]["replayableReason"] = text
    return record


def hostile_wal(text: str, execution_id: str) -> bytes:
    """A valid, chained WAL with ``text`` in its intent, step ids, agents and reasons."""
    specs: list[tuple[str, dict[str, Any]]] = [
        ("execution.started", {"intent_name": text, "envelope_hash": text}),
        ("step.started", {"step_id": f"{text}-1", "agent_name": text, "side_effect": text}),
        ("step.failed", {"step_id": f"{text}-1", "failure_type": text, "reason": text}),
        ("fallback.triggered", {"from_agent": text, "to_agent": text, "reason": text}),
        ("contract.violated", {"step_id": f"{text}-1", "contract": text, "reason": text}),
        ("step.started", {"step_id": f"{text}-2", "agent_name": text, "side_effect": text}),
    ]
    return chained_wal(execution_id, specs)


def dump_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8", "surrogatepass")


def deep_array(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def deep_record(depth: int, execution_id: str) -> bytes:
    """A valid record whose envelope payload is ``depth`` arrays deep."""
    record = make_record(execution_id=execution_id)
    record["envelope"]["payload"] = "__DEEP__"
    return dump_json(record).replace(b'"__DEEP__"', deep_array(depth))


def big_int_record(execution_id: str) -> bytes:
    record = make_record(execution_id=execution_id)
    record["envelope"]["payload"] = "__BIG__"
    return dump_json(record).replace(b'"__BIG__"', b"9" * BIG_DIGITS)


def nan_record(execution_id: str) -> bytes:
    record = make_record(execution_id=execution_id)
    record["envelope"]["payload"] = {"nan": float("nan"), "inf": float("inf")}
    record["finalResponse"]["payload"] = {"score": float("-inf"), "ratio": float("nan")}
    return dump_json(record)


def latency_record(execution_id: str, latency: bytes) -> bytes:
    """A valid record whose attempt end and final response give ``latency`` (a JSON number
    token) as their latency: a 400-digit integer, ``Infinity``."""
    record = make_record(execution_id=execution_id)
    for event in record["events"]:
        if event["type"] == "AGENT_ATTEMPT_END":
            event["payload"]["latency_ms"] = "__LATENCY__"
    record["finalResponse"].setdefault("metadata", {})["latency_ms"] = "__LATENCY__"
    return dump_json(record).replace(b'"__LATENCY__"', latency)


def write_huge_record(path: Path, size: int = HUGE_BYTES) -> Path:
    """A valid record (its envelope hash matches) padded to ``size`` bytes with one huge
    string, written in a few large writes; the hash is computed streaming, as the file is."""
    record = make_record(execution_id=path.name.removesuffix(".json"))
    record["envelope"]["payload"] = "__HUGE__"
    canonical = json.dumps(record["envelope"], sort_keys=True, separators=(",", ":"))
    head, tail = dump_json(record).split(b'"__HUGE__"')
    pad = size - len(head) - len(tail) - 2
    chunk = b"x" * (8 * 1024 * 1024)
    digest = hashlib.sha256()
    before, after = canonical.encode().split(b'"__HUGE__"')
    digest.update(before + b'"')
    for at in range(0, pad, len(chunk)):
        digest.update(chunk[: min(len(chunk), pad - at)])
    digest.update(b'"' + after)
    stale = record["header"]["envelopeHash"].encode()
    head = head.replace(stale, digest.hexdigest().encode())
    with open(path, "wb") as handle:
        handle.write(head + b'"')
        for at in range(0, pad, len(chunk)):
            handle.write(chunk[: min(len(chunk), pad - at)])
        handle.write(b'"' + tail)
    return path


def _wrong_type_records() -> dict[str, Any]:
    """Records with a wrong JSON type in one section or field (file stem -> record)."""
    out: dict[str, Any] = {}
    for key, value in (
        ("header", [1, 2]),
        ("events", {"seq": 1}),
        ("envelope", "envelope"),
        ("finalResponse", 42),
        ("routerDecision", [None]),
    ):
        out[f"wrong-{key}"] = {**make_record(execution_id=f"wrong-{key}"), key: value}
    base = make_record(execution_id="wrong-events")
    header = dict(base["header"])
    header.update(executionId=7, envelopeHash=["x"], replayable="yes", createdUtcIso=1.5)
    out["wrong-header-fields"] = {**base, "header": header}
    events = [
        "not an event",
        None,
        {"seq": "1", "type": 3, "payload": "x"},
        {"seq": True, "type": None, "payload": [1]},
        {"seq": -5, "type": "AGENT_ATTEMPT_END", "payload": {"agent": [], "status": {}}},
        {"seq": 10**30, "type": "FALLBACK_TRIGGERED", "payload": {"from": {}, "to": 1}},
    ]
    out["wrong-events"] = {**base, "events": events}
    return out


def build_corpus(root: Path, *, huge: bool = False) -> Corpus:
    """Write every hostile file under ``root`` (created if needed) and describe them.

    ``huge`` adds a 200 MB record (slow to write; the default corpus stays small).
    """
    intentusnet = root / ".intentusnet"
    records = intentusnet / "records"
    wal = intentusnet / "wal"
    outside = root / "outside"
    for directory in (records, wal, outside):
        directory.mkdir(parents=True, exist_ok=True)
    corpus = Corpus(root, intentusnet, records, wal, outside)

    def rec(name: str, data: bytes | None, why: str, *statuses: LoadStatus) -> Path:
        path = records / name
        if data is not None:
            if path.is_file():
                path.chmod(0o644)  # built twice: the mode-000 file must be writable again
            path.write_bytes(data)
        corpus.records[name] = HostileFile(name, why, frozenset(s.value for s in statuses))
        return path

    def wal_file(name: str, data: bytes | None, why: str, *statuses: str) -> Path:
        path = wal / name
        if data is not None:
            path.write_bytes(data)
        corpus.wals[name] = HostileFile(name, why, frozenset(statuses))
        return path

    good = dump_json(make_record(execution_id="good-1"))
    rec("good-1.json", good, "a valid record, for contrast", S.OK)
    rec("empty.json", b"", "an empty file", S.EMPTY)
    rec("whitespace.json", b" \n\t\r\n  ", "whitespace only", S.EMPTY)
    rec("bom-1.json", b"\xef\xbb\xbf" + dump_json(make_record(execution_id="bom-1")), "BOM", S.OK)
    rec("bom-only.json", b"\xef\xbb\xbf", "a BOM and nothing else", S.EMPTY, S.NOT_JSON)
    latin1 = dump_json(make_record(execution_id="latin1-1", intent="Zusammenfassung für"))
    rec(
        "latin1-1.json",
        latin1.replace("für".encode(), b"f\xfcr"),
        "Latin-1 bytes",
        S.NOT_UTF8,
        S.SALVAGED,
    )
    rec("binary.json", bytes(range(256)) * 8, "binary garbage", S.NOT_UTF8, S.NOT_JSON)
    rec("zeros.json", b"\x00" * 4096, "a zero-filled crash tail", S.NOT_JSON, S.NOT_UTF8)
    rec("list.json", b"[1, 2, 3]", "JSON that is a list", S.NOT_RECORD)
    rec("string.json", b'"just a string"', "JSON that is a string", S.NOT_RECORD)
    rec("null.json", b"null", "JSON null", S.NOT_RECORD)
    rec("number.json", b"12.5e3", "a JSON number", S.NOT_RECORD)
    rec("object.json", b'{"hello": "world"}', "an object that is not a record", S.NOT_RECORD)
    rec("nan-1.json", nan_record("nan-1"), "NaN/Infinity tokens", S.OK)
    rec("nan-bare.json", b"NaN", "a bare NaN token", S.NOT_RECORD)
    # Every command but the listing stopped at "int too large to convert to float".
    rec(
        "latency-big.json",
        latency_record("latency-big", b"1" + b"0" * 400),
        "a 401-digit latency",
        S.OK,
    )
    rec("latency-inf.json", latency_record("latency-inf", b"Infinity"), "an infinite latency", S.OK)
    rec(
        "bigint-1.json",
        big_int_record("bigint-1"),
        "a 10,000-digit integer",
        S.SALVAGED,
        S.NOT_JSON,
        S.OK,
    )
    rec(
        "bigint-bare.json",
        b"9" * BIG_DIGITS,
        "only a 10,000-digit integer",
        S.NOT_JSON,
        S.NOT_RECORD,
    )
    rec("deep-array.json", deep_array(DEEP), "arrays nested 100,000 deep", S.TOO_DEEP)
    rec(
        "deep-object.json", b'{"a":' * DEEP + b"1" + b"}" * DEEP, "objects 100,000 deep", S.TOO_DEEP
    )
    rec(
        "deep-1.json",
        deep_record(DEEP, "deep-1"),
        "a record with a 100,000-deep payload",
        S.TOO_DEEP,
    )
    # Just shallow enough to parse, deep enough to break any recursive code run on it later.
    for depth in (200, 900, 990):
        name = f"deep-{depth}.json"
        rec(name, deep_record(depth, f"deep-{depth}"), f"a {depth}-deep payload", S.OK, S.TOO_DEEP)
    cut = good[: len(good) // 2]
    rec("cut-1.json", cut.replace(b"good-1", b"cut-1"), "truncated mid-record", S.SALVAGED)
    rec(
        "garbage-1.json",
        good.replace(b"good-1", b"garbage-1")[:300] + b"\x00\xff}{",
        "garbage",
        S.SALVAGED,
        S.NOT_UTF8,
    )
    rec(
        "snapshot.json",
        dump_json({"stepName": "s", "inputHash": "h", "artifacts": []}),
        "a Verist snapshot",
        S.NOT_RECORD,
    )
    rec(
        "walentry.json",
        dump_json({"entry_type": "x", "entry_hash": "y"}),
        "a WAL entry",
        S.NOT_RECORD,
    )
    for name, value in _wrong_type_records().items():
        rec(f"{name}.json", dump_json(value), "wrong types", S.OK)
    for index, evil in enumerate(("../../outside/escape", "/etc/passwd", "a\x00b", ".hidden")):
        record = make_record(execution_id=evil)
        rec(f"evil-id-{index}.json", dump_json(record), f"executionId {evil!r}", S.OK)

    # Not regular files, or not readable.
    (records / "dir.json").mkdir(exist_ok=True)
    rec("dir.json", None, "a directory named *.json", S.NOT_A_FILE)
    fifo = records / "fifo.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    rec("fifo.json", None, "a FIFO: opening it must not block", S.NOT_A_FILE)
    if _make_socket(records / "socket.json"):
        rec("socket.json", None, "a Unix socket", S.NOT_A_FILE, S.UNREADABLE)
    _symlink(records / "broken.json", records / "no-such-target.json")
    rec("broken.json", None, "a broken symlink", S.UNREADABLE)
    secret = outside / "secret.json"
    secret.write_bytes(dump_json(make_record(execution_id="secret")))
    _symlink(records / "secret.json", secret)
    rec("secret.json", None, "a symlink out of the directory", S.OK, S.UNREADABLE)
    _symlink(records / "loop.json", records / "loop.json")
    rec("loop.json", None, "a symlink to itself", S.UNREADABLE)
    denied = rec(
        "denied-1.json",
        dump_json(make_record(execution_id="denied-1")),
        "mode 000",
        S.OK,
        S.UNREADABLE,
    )
    denied.chmod(0)

    # Terminal and markup injection: hostile text in every displayed field.
    for index, evil in enumerate(HOSTILE_STRINGS):
        execution_id = f"{safe_name(evil)}-{index}"
        corpus.hostile_ids.append(execution_id)
        rec(
            f"{execution_id}.json",
            dump_json(hostile_record(evil, execution_id)),
            f"hostile text {evil!r}",
            S.OK,
        )
        wal_file(
            f"{execution_id}.wal", hostile_wal(evil, execution_id), f"hostile text {evil!r}", "ok"
        )
        # The same text in a WAL-only execution (no record file).
        wal_only = f"walonly-{index}"
        wal_file(f"{wal_only}.wal", hostile_wal(evil, wal_only), "hostile WAL-only", "ok")

    # Write-ahead logs.
    wal_file("empty.wal", b"", "an empty WAL", "empty")
    wal_file("binary.wal", bytes(range(256)) * 8, "binary garbage", "no_entry")
    wal_file(
        "bigint.wal", b'{"seq": ' + b"9" * BIG_DIGITS + b"}\n", "10,000-digit integer", "no_entry"
    )
    wal_file("deep.wal", deep_array(DEEP) + b"\n", "100,000 deep", "no_entry")
    wal_file("deep-990.wal", _deep_wal_line(990), "990-deep payload in a chained entry", "no_entry")
    wal_file("nan.wal", b'{"seq": NaN, "payload": Infinity}\n', "NaN/Infinity", "no_entry")
    wal_file("list.wal", b'[1]\n"s"\nnull\n', "lines that are not objects", "no_entry")
    (wal / "dir.wal").mkdir(exist_ok=True)
    wal_file("dir.wal", None, "a directory named *.wal", "is_directory", "unreadable")
    fifo_wal = wal / "fifo.wal"
    if not fifo_wal.exists():
        os.mkfifo(fifo_wal)
    wal_file("fifo.wal", None, "a FIFO named *.wal: must not block", "unreadable", "is_directory")
    _symlink(wal / "broken.wal", wal / "no-such.wal")
    wal_file("broken.wal", None, "a broken symlink", "missing", "unreadable")

    if huge:
        write_huge_record(records / "huge-1.json")
        rec("huge-1.json", None, "a 200 MB record", S.OK)
    return corpus


def _deep_wal_line(depth: int) -> bytes:
    entry = make_wal_entry(
        seq=1,
        execution_id="deep-990",
        timestamp_iso="2026-01-05T10:00:00+00:00",
        entry_type="execution.started",
        payload={"deep": "__DEEP__"},
        prev_hash=None,
    )
    return encode_wal_line(entry).replace(b'"__DEEP__"', deep_array(depth))


def _symlink(link: Path, target: Path) -> None:
    if not os.path.lexists(link):
        os.symlink(target, link)


def _make_socket(path: Path) -> bool:
    """A Unix socket at ``path``; False when the platform refuses (e.g. a path too long)."""
    if os.path.lexists(path):
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
    except OSError:
        return False
    finally:
        sock.close()
    return True
