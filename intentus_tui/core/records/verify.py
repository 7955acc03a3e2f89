"""Integrity checks of one record: envelope hash, event sequence, structure.

The envelope hash is checked in both forms: the runtime form (what IntentusNet 1.3.0 computes:
the whole envelope, bare hex) and the documented form (``sha256:`` prefix, top-level
``routingMetadata`` left out, ``default=str``). The form
is first *detected* from how the stored hash is written, then every form is computed, so
a report can say "stored in the documented form, matched the runtime computation". A
mismatch is only called tampering after looking for benign explanations: numeric dict keys
(what IntentusNet 1.3.0 itself causes, see ``numeric_keys``), upper-case hex, a prefix
added or dropped, routing metadata updated during routing, ASCII escaping, unsorted keys.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from intentus_tui.core.model import FILE_WORDS, HashStatus
from intentus_tui.core.records.hashing import (
    DOCUMENTED_PREFIX,
    documented_envelope_hash,
    parsed_documented_canonical,
    parsed_runtime_canonical,
    runtime_envelope_hash,
    variant_canonical,
)
from intentus_tui.core.records.load import (
    ExecutionRecord,
    LoadResult,
    LoadStatus,
    json_kind,
    not_an_object,
)
from intentus_tui.core.sanitize import quoted, sanitize_line

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


class HashCheck(NamedTuple):
    status: HashStatus
    stored: str | None
    detected_form: str  # runtime | documented | unknown | absent
    matched_form: str | None
    computed: Mapping[str, str]  # form -> hash computed from the envelope on disk
    explanation: str
    benign: str | None = None  # a harmless reason the hash differs, when one was found

    @property
    def expected(self) -> str | None:
        """What the stored hash says the envelope should hash to."""
        return self.stored

    @property
    def actual(self) -> str | None:
        """What the envelope on disk hashes to, in the detected form."""
        form = self.detected_form if self.detected_form in self.computed else "runtime"
        return self.computed.get(form)

    def to_json(self) -> dict[str, Any]:
        """Snake_case, terminal-safe: the ``hash`` object of ``verify``/``inspect --json``."""
        return {
            "status": self.status.value,
            "stored": sanitize_line(self.stored or "") or None,
            "detected_form": self.detected_form,
            "matched_form": self.matched_form,
            "expected": sanitize_line(self.expected or "") or None,
            "actual": self.actual,
            "computed": dict(self.computed),
            "explanation": sanitize_line(self.explanation),
            "benign": self.benign,
        }


def detect_hash_form(stored: Any) -> str:
    if stored is None:
        return "absent"
    if not isinstance(stored, str):
        return "unknown"
    if stored.startswith(DOCUMENTED_PREFIX) and _HEX64.fullmatch(stored[len(DOCUMENTED_PREFIX) :]):
        return "documented"
    if _HEX64.fullmatch(stored):
        return "runtime"
    return "unknown"


def _bare(value: str) -> str:
    return value[len(DOCUMENTED_PREFIX) :] if value.startswith(DOCUMENTED_PREFIX) else value


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _variant_hashes(envelope: Any) -> list[tuple[str, Callable[[], str]]]:
    """Computations a writer might plausibly have used, each with the story it tells."""

    def without_routing_metadata_updates() -> str:
        env = dict(envelope)
        rm = env.get("routingMetadata")
        if isinstance(rm, dict):
            env["routingMetadata"] = {**rm, "decisionPath": [], "retries": 0}
        return runtime_envelope_hash(env)

    def not_ascii_escaped() -> str:
        return _sha(variant_canonical(envelope, sort_keys=True, ensure_ascii=False))

    def unsorted_keys() -> str:
        return _sha(variant_canonical(envelope, sort_keys=False, ensure_ascii=True))

    variants = [
        ("the writer hashed UTF-8 text without ASCII escaping", not_ascii_escaped),
        ("the writer hashed JSON without sorting keys", unsorted_keys),
    ]
    if not _routing_metadata_as_recorded(envelope.get("routingMetadata")):
        # Undoing the updates changes something: worth a hash (6 us). Else it would hash
        # the envelope as it is: the hash that differs.
        story = (
            "routingMetadata (decisionPath/retries) was updated during routing after the hash "
            "was taken; the rest of the envelope is unchanged"
        )
        variants.insert(0, (story, without_routing_metadata_updates))
    return variants


def _routing_metadata_as_recorded(rm: Any) -> bool:
    """Routing metadata with no decision path and no retries, exactly as JSON writes them
    before routing (an empty list, the integer 0), or none at all."""
    if not isinstance(rm, dict):
        return True
    path, retries = rm.get("decisionPath"), rm.get("retries")
    return type(path) is list and not path and type(retries) is int and retries == 0


_FORMS: dict[str, Callable[[Any], str]] = {
    "runtime": runtime_envelope_hash,
    "documented": documented_envelope_hash,
}
# The same hashes for an envelope exactly as ``orjson.loads`` returned it (no type walk).
_PARSED_FORMS: dict[str, Callable[[Any], str]] = {
    "runtime": lambda e: _sha(parsed_runtime_canonical(e)),
    "documented": lambda e: DOCUMENTED_PREFIX + _sha(parsed_documented_canonical(e)),
}


class HashVerdict(NamedTuple):
    """What comparing a stored hash with the envelope decides, before any explanation."""

    status: HashStatus
    detected_form: str
    matched_form: str | None
    computed: dict[str, str]
    written_differently: bool = False  # same digest, other letter case or prefix


def hash_verdict(
    envelope: Any,
    stored: str,
    *,
    all_forms: bool = False,
    parsed: bool = False,
    known: dict[str, str] | None = None,
) -> HashVerdict:
    """Compare ``stored`` with the envelope's hash in each form, the detected form first.

    ``all_forms``: on a match, compute the other form too. ``parsed``: the envelope is
    exactly what ``orjson.loads`` returned. ``known``: hashes of some forms the caller has
    computed already (not computed again). Raises what hashing raises (ValueError,
    TypeError, RecursionError) for an envelope that cannot be hashed.
    """
    detected = detect_hash_form(stored)
    order = ("documented", "runtime") if detected == "documented" else ("runtime", "documented")
    forms = _PARSED_FORMS if parsed else _FORMS
    computed: dict[str, str] = {}
    for form in order:
        computed[form] = known[form] if known and form in known else forms[form](envelope)
        if stored == computed[form]:
            if all_forms:
                computed.update((f, forms[f](envelope)) for f in order if f not in computed)
            return HashVerdict(HashStatus.MATCH, detected, form, computed)
    bare = _bare(stored).lower()
    for form, value in computed.items():
        if bare == _bare(value):
            return HashVerdict(HashStatus.MATCH, detected, form, computed, written_differently=True)
    status = HashStatus.UNVERIFIABLE if detected == "unknown" else HashStatus.MISMATCH
    return HashVerdict(status, detected, None, computed)


def check_envelope_hash(
    record: ExecutionRecord, *, all_forms: bool = True, explain: bool = True
) -> HashCheck:
    """Verify the stored hash. ``all_forms=False`` stops at the first form that matches
    (the index's cheap path); a mismatch always computes every form to explain itself.
    ``explain=False`` skips looking for a benign story behind a mismatch (the status is
    the same either way)."""
    stored_raw = record.header.raw.get("envelopeHash")
    stored = stored_raw if isinstance(stored_raw, str) else None
    detected = detect_hash_form(stored_raw)
    if not record.has("envelope"):
        return HashCheck(HashStatus.UNVERIFIABLE, stored, detected, None, {}, "No envelope to hash")
    if stored is None:
        why = (
            "No envelopeHash in the header"
            if stored_raw is None
            else "envelopeHash is not a string"
        )
        return HashCheck(HashStatus.UNVERIFIABLE, None, detected, None, {}, why)
    envelope = record.envelope
    try:
        verdict = hash_verdict(envelope, stored, all_forms=all_forms)
    except (ValueError, TypeError, RecursionError) as exc:
        return HashCheck(
            HashStatus.UNVERIFIABLE, stored, detected, None, {}, f"Envelope cannot be hashed: {exc}"
        )
    return _explained(envelope, stored, verdict, explain)


def _explained(envelope: Any, stored: str, verdict: HashVerdict, explain: bool) -> HashCheck:
    detected, form, computed = verdict.detected_form, verdict.matched_form, verdict.computed
    if verdict.status is HashStatus.MATCH and not verdict.written_differently:
        note = (
            "" if form == detected else f" (stored as {detected}, matched the {form} computation)"
        )
        return HashCheck(
            HashStatus.MATCH, stored, detected, form, computed, f"Envelope hash matches{note}"
        )
    if verdict.status is HashStatus.MATCH:
        benign = "same digest, written differently (letter case or sha256: prefix)"
        return HashCheck(
            HashStatus.MATCH,
            stored,
            detected,
            form,
            computed,
            f"Envelope hash matches: {benign}",
            benign,
        )
    if verdict.status is HashStatus.UNVERIFIABLE:
        return HashCheck(
            HashStatus.UNVERIFIABLE,
            stored,
            detected,
            None,
            computed,
            "Stored envelopeHash is not a sha256 hex digest, so it cannot be checked",
        )
    if explain:
        story, exact, limit_note = _benign_story(envelope, stored, detected)
        if story is not None:
            certainty = "benign" if exact else "probably benign"
            return HashCheck(
                HashStatus.MISMATCH,
                stored,
                detected,
                None,
                computed,
                f"Envelope hash differs, {certainty}: {story}",
                story,
            )
    else:
        limit_note = ""
    expected_form = detected if detected in computed else "runtime"
    return HashCheck(
        HashStatus.MISMATCH,
        stored,
        detected,
        None,
        computed,
        "Envelope modified since it was recorded: stored "
        f"{stored} but the envelope on disk hashes to {computed[expected_form]} "
        f"({expected_form} form); no benign explanation found — possible tampering" + limit_note,
    )


def benign_story(envelope: Any, stored: str, canonical: bytes | None = None) -> str | None:
    """A harmless reason ``envelope`` does not hash to ``stored``, or None: what
    ``check_envelope_hash`` reports as ``benign`` once it has found a mismatch. Costs
    nothing beyond a scan of the envelope unless it holds something a story is about.
    ``canonical``: the envelope's ``runtime_canonical`` text, when the caller has it."""
    return _benign_story(envelope, stored, detect_hash_form(stored), canonical)[0]


def _benign_story(
    envelope: Any, stored: str, detected: str, canonical: bytes | None = None
) -> tuple[str | None, bool, str]:
    """(story, whether the story is certain, a note on a search that was cut short)."""
    if not isinstance(envelope, dict):
        return None, False, ""
    bare = _bare(stored).lower()
    forms = ("documented", "runtime") if detected == "documented" else ("runtime", "documented")
    limit_note = ""
    try:
        # What the real 1.3.0 writer does: tried first, and certain when it reproduces the
        # hash (the envelope's content is then exactly what was hashed).
        from intentus_tui.core.records.numeric_keys import numeric_key_story  # rare: 2 ms

        numeric = numeric_key_story(envelope, bare, forms, canonical)
        if numeric.story is not None:
            return numeric.story, True, ""
        if not numeric.searched_all:
            limit_note = (
                f" ({numeric.candidates} dicts have keys that may have been numbers; "
                "too many to try every combination)"
            )
    except (ValueError, TypeError, RecursionError):
        pass
    for story, compute in _variant_hashes(envelope):
        try:
            if compute() == bare:
                return story, False, ""
        except (ValueError, TypeError, RecursionError):
            continue
    return None, False, limit_note


class SequenceCheck(NamedTuple):
    ok: bool
    problems: tuple[str, ...]
    gaps: tuple[tuple[int, int], ...] = ()  # (after seq, next seq) where numbers are missing


def check_event_sequence(record: ExecutionRecord) -> SequenceCheck:
    problems: list[str] = []
    gaps: list[tuple[int, int]] = []
    last: int | None = None
    for event in record.events:
        seq = event.seq
        if seq is None:
            # Malformed, not missing (``check_structure`` names it): it stands for the seq
            # it holds the place of, so the events around it are not called a gap.
            last = 1 if last is None else last + 1
            continue
        if last is None:
            if seq != 1:
                problems.append(f"first event has seq {seq}, expected 1")
        elif seq <= last:
            problems.append(f"seq {seq} after seq {last}: not strictly increasing")
        elif seq != last + 1:
            gaps.append((last, seq))
            problems.append(f"gap: seq {last} is followed by seq {seq}")
        last = seq if last is None or seq > last else last
    return SequenceCheck(not problems, tuple(problems), tuple(gaps))


_HEADER_TYPES: dict[str, tuple[type, ...]] = {
    "executionId": (str,),
    "createdUtcIso": (str,),
    "envelopeHash": (str,),
    "replayable": (bool,),
}
_OPTIONAL_HEADER_TYPES: dict[str, tuple[type, ...]] = {"replayableReason": (str, type(None))}


class StructureCheck(NamedTuple):
    ok: bool
    problems: tuple[str, ...]
    # The file is named after another execution's id (its problem is the last one).
    name_mismatch: bool = False
    # What is unusual and harmless: a copy's or a renamed file's name (not a problem).
    notes: tuple[str, ...] = ()

    @property
    def record_ok(self) -> bool:
        """Usable as a record (a misnamed file is suspicious, not corrupt)."""
        return self.ok or (self.name_mismatch and len(self.problems) == 1)


_HEX_DIGIT = re.compile(r"[0-9a-fA-F]")


def names_another_execution(execution_id: str, file_stem: str) -> bool:
    """``file_stem`` (not ``execution_id``) is shaped as an execution id is: the same
    length, its hex digits where the id has hex digits and the rest alike (``exec-47da``
    for ``exec-3580``, one UUID for another). IntentusNet's store files a record as
    ``<executionId>.json``, so such a name files this record under another execution; a
    copy (``<id>.copy``, ``<id> (1)``) or a name of an operator's own is not one."""
    return (
        file_stem != execution_id
        and len(file_stem) == len(execution_id)
        and _HEX_DIGIT.sub("h", file_stem) == _HEX_DIGIT.sub("h", execution_id)
    )


def check_structure(record: ExecutionRecord, file_stem: str | None = None) -> StructureCheck:
    problems: list[str] = []
    raw = record.raw
    for section in ("header", "envelope", "events"):
        if section not in raw:
            problems.append(f"missing section {quoted(section)}")
    header = raw.get("header")
    if "header" in raw and not isinstance(header, dict):
        problems.append(f"header is {json_kind(header)}, expected object")
    elif isinstance(header, dict):
        for key, types in _HEADER_TYPES.items():
            if key not in header:
                problems.append(f"header.{key} missing")
            elif not isinstance(header[key], types):
                problems.append(f"header.{key} is {json_kind(header[key])}")
        for key, types in _OPTIONAL_HEADER_TYPES.items():
            if key in header and not isinstance(header[key], types):
                problems.append(f"header.{key} is {json_kind(header[key])}")
    envelope = raw.get("envelope")
    if "envelope" in raw:
        if not isinstance(envelope, dict):
            problems.append(f"envelope is {json_kind(envelope)}, expected object")
        elif not isinstance(envelope.get("intent"), dict):
            problems.append("envelope.intent missing or not an object")
    for key, allowed in (
        ("routerDecision", (dict, type(None))),
        ("finalResponse", (dict, type(None))),
    ):
        if key in raw and not isinstance(raw[key], allowed):
            problems.append(f"{key} is {json_kind(raw[key])}, expected object or null")
    events = raw.get("events")
    if "events" in raw and not isinstance(events, list):
        problems.append(f"events is {json_kind(events)}, expected array")
    elif isinstance(events, list):
        for index, event in enumerate(events):
            problems.extend(_event_problems(index, event))
    execution_id = record.execution_id
    misnamed, notes = False, tuple[str, ...]()
    if file_stem is not None and execution_id is not None and execution_id != file_stem:
        said = f"executionId {quoted(execution_id)} differs from the file name {quoted(file_stem)}"
        misnamed = names_another_execution(execution_id, file_stem)
        if misnamed:
            problems.append(said)
        else:  # the record itself is as written; only where it is kept differs
            notes = (f"{said}: a copy or a renamed file (IntentusNet names it by its id)",)
    return StructureCheck(not problems, tuple(problems), misnamed, notes)


def _event_problems(index: int, event: Any) -> list[str]:
    if (
        type(event) is dict
        and type(event.get("seq")) is int
        and type(event.get("type")) is str
        and type(event.get("payload")) is dict
    ):
        return []  # the usual event, as parsed JSON makes it: nothing to name
    where = f"events[{index}]"
    if not isinstance(event, dict):
        return [f"{where} is {json_kind(event)}, expected object"]
    out = []
    seq = event.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        out.append(f"{where}.seq is {json_kind(seq)}")
    if not isinstance(event.get("type"), str):
        out.append(f"{where}.type is {json_kind(event.get('type'))}")
    if not isinstance(event.get("payload"), dict):
        out.append(f"{where}.payload is {json_kind(event.get('payload'))}")
    return out


def check_final_response(record: ExecutionRecord) -> tuple[str, ...]:
    """The response is written twice (``finalResponse`` and the ``FINAL_RESPONSE`` event's
    payload): if the two disagree, one was edited after recording."""
    final = record.final_response
    event = next((e for e in reversed(record.events) if e.type == "FINAL_RESPONSE"), None)
    if event is None:
        return ()
    if final is None:
        if "finalResponse" not in record.raw:  # it went with the end of a file cut short
            return ()
        # Written null beside the event: IntentusNet 1.3.0 sets both before it saves a
        # record, which it does once.
        what = "null"
    elif (kind := not_an_object(final)) is not None:
        what = f"{kind}, not an object"
    else:
        return final_response_problems(final, event.payload)
    # The event holds a response; the record's copy is no response.
    status = event.payload.get("status")
    said = f" (status {sanitize_line(status)})" if isinstance(status, str) else ""
    return (
        f"finalResponse is {what}, but the FINAL_RESPONSE event records a response{said}: "
        "edited after recording?",
    )


def final_response_problems(final: dict[str, Any], recorded: dict[str, Any]) -> tuple[str, ...]:
    """``check_final_response`` once both sides are found: ``finalResponse`` and the
    payload of the last ``FINAL_RESPONSE`` event."""
    if "has_error" in recorded and "payload" not in recorded:  # the documented summary form
        problems = []
        if "status" in recorded and recorded.get("status") != final.get("status"):
            problems.append("finalResponse.status differs from the FINAL_RESPONSE event")
        if bool(recorded.get("has_error")) != bool(final.get("error")):
            problems.append(
                "finalResponse.error disagrees with the FINAL_RESPONSE event's has_error"
            )
        return tuple(problems)
    if recorded == final:  # the usual case, compared in C
        return ()
    differing = sorted(k for k in recorded if k in final and recorded[k] != final[k])
    if not differing:
        return ()
    keys = ", ".join(differing)
    return (
        f"finalResponse differs from the FINAL_RESPONSE event in {keys}: edited after recording?",
    )


class VerifyReport(NamedTuple):
    """Everything ``verify`` says about one file."""

    path: str
    load_status: LoadStatus
    load_message: str
    hash: HashCheck | None
    sequence: SequenceCheck | None
    structure: StructureCheck | None
    problems: tuple[str, ...] = ()
    # What differs harmlessly and is explained (a benign hash mismatch, a copy's name):
    # not a problem.
    notes: tuple[str, ...] = ()
    cut_short: bool = False  # salvaged from a file that ends early (else damaged within)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        seq, st = self.sequence, self.structure
        return {
            "file": self.path,
            "ok": self.ok,
            "load_status": self.load_status.value,
            "hash": None if self.hash is None else self.hash.to_json(),
            "sequence": None
            if seq is None
            else {
                "ok": seq.ok,
                "problems": list(seq.problems),
                "gaps": [list(g) for g in seq.gaps],
            },
            "structure": None
            if st is None
            else {"ok": st.ok, "problems": [sanitize_line(p) for p in st.problems]},
            "problems": [sanitize_line(p) for p in self.problems],
            "notes": [sanitize_line(n) for n in self.notes],
        }


def verify_load_result(result: LoadResult) -> VerifyReport:
    record = result.record
    if record is None:
        return VerifyReport(
            str(result.path), result.status, result.message, None, None, None, (result.message,)
        )
    hash_check = check_envelope_hash(record)
    sequence = check_event_sequence(record)
    structure = check_structure(record, result.stem)
    problems = record_problems(result, hash_check, sequence, structure)
    notes = ((hash_check.explanation,) if _benign(hash_check) else ()) + structure.notes
    return VerifyReport(
        str(result.path),
        result.status,
        result.message,
        hash_check,
        sequence,
        structure,
        problems,
        notes,
        result.damage is not None and result.damage.truncated,
    )


# What a file turned out to be, when it holds no record to hash: in the words its list
# row, ``inspect`` and the Verify tab say it with (``FILE_WORDS``); these two are no file
# of those.
_NOT_HASHED = {
    LoadStatus.NO_RECORD: "no record file",
    LoadStatus.HEAD_ONLY: "not read whole",
}


def hash_words(report: VerifyReport) -> str:
    """What the envelope hash check found, as ``verify``'s line and ``inspect``'s say it:
    ``match``, ``mismatch (benign)``, ``not checked (not a readable record)``; of a
    salvaged record, only the envelope that survived was hashed ("match" alone was read as
    the record verified)."""
    check = report.hash
    if check is None:  # no record was read: nothing was hashed ("not_json" said nothing)
        status = report.load_status
        why = FILE_WORDS.get(status) or _NOT_HASHED.get(status, status.value.replace("_", " "))
        return f"not checked ({why})"
    said = ["benign"] if check.benign is not None else []
    salvaged = salvaged_hash_words(report)
    if salvaged is not None:
        said.append(salvaged)
    words = check.status.value
    return f"{words} ({'; '.join(said)})" if said else words


def salvaged_hash_words(report: VerifyReport) -> str | None:
    """What a hash check of a salvaged record is of (``of the envelope that survived; the
    file is cut short``), or None for a record read whole."""
    check = report.hash
    if check is None or report.load_status is not LoadStatus.SALVAGED:
        return None
    damage = "the file is cut short" if report.cut_short else "the file is damaged"
    if check.status is HashStatus.UNVERIFIABLE:  # nothing was hashed
        return damage
    return f"of the envelope that survived; {damage}"


def _benign(hash_check: HashCheck) -> bool:
    """A differing hash explained by a story that reproduces it: a note, not a problem."""
    return hash_check.status is HashStatus.MISMATCH and hash_check.benign is not None


def record_problems(
    result: LoadResult,
    hash_check: HashCheck,
    sequence: SequenceCheck,
    structure: StructureCheck,
    final_problems: tuple[str, ...] | None = None,
) -> tuple[str, ...]:
    """What is wrong with a loaded record: the one list ``verify`` and ``inspect`` print,
    and whose length is the listing's ``problems``. A hash that differs for a harmless
    reason that reproduces it exactly is not a problem (``verify`` shows it as a note).
    ``final_problems``: ``check_final_response(result.record)``, when the caller has it."""
    assert result.record is not None
    problems: list[str] = []
    if result.status is not LoadStatus.OK:
        problems.append(result.message)
    if hash_check.status is not HashStatus.MATCH and not _benign(hash_check):
        problems.append(hash_check.explanation)
    problems.extend(sequence.problems)
    problems.extend(structure.problems)
    if final_problems is None:
        final_problems = check_final_response(result.record)
    problems.extend(final_problems)
    return tuple(problems)
