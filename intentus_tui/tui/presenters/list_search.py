"""What ``/`` and the command palette search: each execution's text and its verdict's
words, and the terms of a typed filter (some of them asked of the verdict itself).

A searched text is kept as UTF-8 bytes, and the terms are searched as UTF-8 bytes too
(``as_searched``): one check mark from a row's cells made a ``str`` two bytes a character (a
typical text 696 bytes, 330 as bytes), and ``/`` keeps one for every execution: at
1,000,000 that was 870 MB of the debugger's memory. UTF-8 finds a term exactly where the
text holds it (no character's bytes begin inside another's)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from intentus_tui.core.model import (
    UNTRUSTED_INTEGRITY,
    ExecutionSummary,
    ReplayCode,
    display_id,
)
from intentus_tui.tui.presenters.list_groups import (
    GROUP_TITLES,
    KINDS,
    WRITING_TITLE,
    VerdictKind,
    group_of_kind,
)
from intentus_tui.tui.presenters.verdict_cells import WRITING_BADGE, row_texts

# A group's title is searched up to its colon: "untrusted" finds its rows, but the kinds
# it lists ("tampered or chain broken") are each row's own integrity word to find.
_GROUP_WORDS = {int(g): title.partition(":")[0].casefold() for g, title in GROUP_TITLES.items()}


def _kind_words(kind: VerdictKind) -> str:
    outcome, integrity, replay = kind
    words = [outcome.value, integrity.value, replay.value]
    words.append("untrusted" if integrity in UNTRUSTED_INTEGRITY else "trusted")
    if replay is not ReplayCode.REPLAYABLE:
        words.append("not_replayable")
    return " ".join(words).replace("_", " ") + " " + " ".join(words)


@lru_cache(maxsize=256)
def searched_words(kind: VerdictKind, writing: bool = False) -> str:
    """The searched words of a verdict (a few dozen kinds: made once each): ``/`` and the
    command palette find an execution by them, and by what its row shows of them (the
    columns' abbreviations and marks: ``unverif.``, ``✗ corrupt``, ``#?``). ``writing``: a
    record caught mid-write, whose verdict waits for the rest of the file: what its row
    says ("… writing", "being written" as its group and the counts do), not the outcome
    its half gives ("unknown") nor its group's title."""
    shown = row_texts(*kind).casefold()
    if writing:  # its badge said as the row says it; its other cells as they are
        _, _, cells = shown.partition("\n")
        return f"\n{WRITING_BADGE[0]}\n{WRITING_TITLE.casefold()}\n{cells}"
    return "\n" + _kind_words(kind) + "\n" + shown + "\n" + _GROUP_WORDS[group_of_kind(kind)]


# As text, "replayable" is in every non-replayable execution's words too ("not
# replayable"): typed whole, it is found by the verdict's codes alone (a tampered record's
# header still says replayable), and "not replayable" or "not_replayable" finds the others.
# A word being typed ("replay", "not replayab") is text, which every execution the whole
# term finds holds (its verdict's words): typing on only narrows the rows.
VERDICT_TERMS: dict[str, Callable[[VerdictKind], bool]] = {
    "replayable": lambda kind: kind[2] is ReplayCode.REPLAYABLE,
    "not_replayable": lambda kind: kind[2] is not ReplayCode.REPLAYABLE,
}


def as_searched(text: str) -> bytes:
    """``text`` as a searched text holds it (lone surrogates too: a file name's
    undecodable bytes)."""
    return text.encode("utf-8", "surrogatepass")


# A word typed whole that is also the end of its opposite ("trusted" in "untrusted",
# "complete" in "incomplete") is found only where the opposite's prefix is not before it:
# "trusted" finds the trusted executions, not the untrusted ones too.
OPPOSITE_PREFIX = {"trusted": "un", "complete": "in"}


_OPPOSITE_PREFIX = {
    as_searched(word): as_searched(prefix) for word, prefix in OPPOSITE_PREFIX.items()
}


def found_in(term: bytes, haystack: bytes) -> bool:
    """Whether ``haystack`` holds ``term`` (not as the end of its opposite)."""
    prefix = _OPPOSITE_PREFIX.get(term)
    if prefix is None:
        return term in haystack
    at = haystack.find(term)
    while at >= 0:
        if haystack[max(0, at - len(prefix)) : at] != prefix:
            return True
        at = haystack.find(term, at + 1)
    return False


# A term to be absent: "not" and the word after it ("not untrusted": every execution
# whose text does not hold "untrusted"). The mark cannot be typed (no word holds a NUL).
NEGATED = "\x00"


def query_terms(query: str) -> tuple[str, ...]:
    """The terms of a typed filter, each to be found: its words casefolded; "not" and the
    word after it make one term, to be absent (``NEGATED``), or the verdict term
    ("not replayable" is "not_replayable"). A "not" last, before its word is typed, is no
    term yet."""
    terms: list[str] = []
    pending_not = False
    for word in query.casefold().split():
        if pending_not:
            pending_not = False
            if f"not_{word}" in VERDICT_TERMS:
                terms.append(f"not_{word}")
            else:  # "not not": the word "not" absent
                terms.append(NEGATED + word)
        elif word == "not":
            pending_not = True
        else:
            terms.append(word)
    return tuple(terms)


_NEGATED = as_searched(NEGATED)


def term_found(term: bytes, haystack: bytes, words: bytes) -> bool:
    """Whether a text term (``as_searched``) is met by an execution's own text
    (``haystack_of``) and its verdict's ``words`` (``verdict_text``): found in either
    (``found_in``), or for a ``NEGATED`` one, in neither."""
    if term.startswith(_NEGATED):
        term = term[1:]
        return not (found_in(term, haystack) or found_in(term, words))
    return found_in(term, haystack) or found_in(term, words)


def only_substrings(terms: tuple[bytes, ...]) -> bool:
    """Whether each text term (``as_searched``) is met by plain ``in`` (no opposite to leave
    out, none negated): the rows a query typed on finds are then among those it found
    before."""
    return not any(term in _OPPOSITE_PREFIX or term.startswith(_NEGATED) for term in terms)


# What a list row does not show, each after its mark, in this order after what it shows: a
# term first found past ID_START is found by one of them alone (``unshown_match``): the
# rest of a UUID the row cuts to 8 characters, the file's name, the source (record, wal,
# record+wal), the agents (its own and its chain's). No casefolded text holds a mark
# (taken out), and none can be typed.
ID_START, FILE_START, SOURCE_START, AGENTS_START = "\x1c", "\x1d", "\x1e", "\x1f"
_MARKS = (ID_START, FILE_START, SOURCE_START, AGENTS_START)
_UNMARK = str.maketrans(dict.fromkeys(_MARKS, " "))
_SEARCHED_MARKS = {as_searched(mark): mark for mark in _MARKS}  # as the texts hold them
_ID_START, _FILE_START, _SOURCE_START = (
    as_searched(ID_START),
    as_searched(FILE_START),
    as_searched(SOURCE_START),
)
# What each part is called where the list's title says a filter matched by it.
UNSHOWN_PARTS = {ID_START: "id", FILE_START: "file", SOURCE_START: "source", AGENTS_START: "agent"}


def haystack_of(summary: ExecutionSummary) -> bytes:
    """The execution's own text ``/`` searches: what its row shows of it (its id as shown,
    intent, state), then what it does not, each after its mark: the whole id, the file's
    name, the source, the agents. Its verdict's words are searched apart
    (``verdict_text``), once for every execution that has that verdict: in each
    execution's text they were half of it (1,000,000 executions: 160 MB). As UTF-8 (see
    the module's docstring)."""
    shown = (
        f"{display_id(summary.execution_id)}\n{summary.intent}\n{summary.state_label}\n"
        f"{summary.state.value}"
    )
    unshown = (
        (ID_START, summary.execution_id),
        (FILE_START, summary.key),
        (SOURCE_START, summary.source),
        (AGENTS_START, f"{summary.agent}\n{summary.chain}"),
    )
    rest = "".join(mark + text.casefold().translate(_UNMARK) for mark, text in unshown)
    return as_searched(shown.casefold().translate(_UNMARK) + rest)


@lru_cache(maxsize=256)
def verdict_text(kind: VerdictKind, writing: bool = False) -> bytes:
    """``searched_words`` as the texts are searched: what a row shows of its verdict, part
    of what its row shows (``unshown_match``). No term is found across it and an
    execution's own text: neither holds a line break or a mark a term could."""
    return as_searched(searched_words(kind, writing))


def verdict_hits(term: bytes, *, plain: bool = False) -> set[tuple[VerdictKind, bool]]:
    """Every verdict (and whether its row is being written) whose words meet ``term``
    (a text term, as ``found_in`` finds it; ``plain``: held anywhere, as ``in``): a search
    asks this once, not once per execution."""
    found = bytes.__contains__ if plain else lambda words, term: found_in(term, words)
    return {
        (kind, writing)
        for kind in tuple(KINDS)  # every verdict an execution was given so far
        for writing in (False, True)
        if found(verdict_text(kind, writing), term)
    }


def unshown_match(
    terms: tuple[bytes, ...], haystack: bytes, words: bytes, file_shown: bool = False
) -> str | None:
    """The part no row shows (an ``UNSHOWN_PARTS`` mark) that one of ``terms`` (the text
    terms of a filter ``haystack`` and its verdict's ``words`` meet) is found in alone,
    else None: the row seems not to match what was typed. ``file_shown``: this row shows
    its file's name (a copy of a record, a misnamed one): a term found there is found in
    what it shows."""
    hidden = haystack.find(_ID_START)
    shown = haystack[:hidden]
    if file_shown:
        start = haystack.find(_FILE_START, hidden)
        shown += b"\n" + haystack[start + 1 : haystack.find(_SOURCE_START, start)]
    for term in terms:
        if term.startswith(_NEGATED):
            continue  # met by an absence: nothing of the row's is found
        if found_in(term, shown) or found_in(term, words):
            continue
        at = haystack.find(term, hidden)
        return _part_at(haystack, at) if at >= 0 else None
    return None


def _part_at(haystack: bytes, at: int) -> str:
    """The mark of the unshown part holding position ``at``."""
    found = max(_SEARCHED_MARKS, key=lambda mark: haystack.rfind(mark, 0, at + 1))
    return _SEARCHED_MARKS[found]
