"""What ``D`` can compare the selected execution with, one line each, and the fuzzy search
over them (no widgets).

Candidates come in groups: snapshots saved in this session ("just saved"), saved snapshots,
Verist baselines, record files outside the records directory and Active Graph runs
(``core.compare.targets``; under every root when several are open), then the executions of
the list, newest first (from the index's summaries: no file is read for them). Each is one
sanitized line: its kind, its root (several roots open), the short execution id (a run's
whole id), the time, then what it is (verdict marks and intent; workflow@version · step,
label and file name; a run's label or goal, fork and database). An execution known only from its
write-ahead log is listed too, but cannot be chosen (``unavailable`` says why: there is no
record to compare, as ``intentus-tui diff`` refuses it).

The search is built for 100,000 lines: every line, lower-cased, sits in one string; a
query's letters are looked for in order (a fuzzy subsequence) by one regular expression that
cannot backtrack, run from the start until ``limit`` lines are found, after the lines that
hold the query as it is typed (those rank first; an id that a line shows shortened, a
UUID's 8 characters or a long id cut with "…", is found whole as typed too). Only those
lines are scored, with Textual's fuzzy scorer (``textual.fuzzy``, the command palette's):
ranking and highlighting cost what is shown, not what exists.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Literal, NamedTuple

from rich.cells import cell_len
from textual.fuzzy import FuzzySearch

from intentus_tui.core.compare.targets import CompareTarget, describe_file
from intentus_tui.core.model import (
    FILE_WORDS,
    UNTRUSTED_INTEGRITY,
    ExecutionSummary,
    Integrity,
    LoadStatus,
    Outcome,
    ReplayCode,
)
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.timestamps import utc_text
from intentus_tui.render.cells import fit
from intentus_tui.tui.presenters.list_model import PAUSE_EVERY
from intentus_tui.tui.presenters.list_rows import (
    MAX_ID_WIDTH,
    copy_label,
    display_id,
    root_label,
)
from intentus_tui.tui.presenters.verdict_cells import (
    integrity_cell,
    replay_cell,
)

CandidateKind = Literal["saved", "snapshot", "baseline", "record", "run", "execution", "path"]
VerdictCodes = tuple[Outcome, Integrity, ReplayCode]

GROUP_TITLES: dict[CandidateKind, str] = {
    "path": "Typed path",
    "saved": "Just saved",
    "snapshot": "Snapshots",
    "baseline": "Verist baselines",
    "record": "Record files",
    "run": "Active Graph runs",
    "execution": "Executions",
}
KIND_WORDS: dict[CandidateKind, str] = {
    "path": "path",
    "saved": "saved",
    "snapshot": "snapshot",
    "baseline": "baseline",
    "record": "record",
    "run": "run",
    "execution": "exec",
}
KIND_WIDTH = 8
ID_WIDTH = 8  # the id column's least width; as wide as the list's (``id_width``), up to 16
MAX_ROOT_WIDTH = 16  # a root's label in the executions' lines (several roots open)
TIME_WIDTH = 19  # 2026-01-05 10:00:00
# Lines shown for one query (the search stops once it has found this many).
DEFAULT_LIMIT = 200

_OUTCOME_MARKS = {
    Outcome.SUCCEEDED: "✓",
    Outcome.FAILED: "✗",
    Outcome.IN_FLIGHT: "◌",
    Outcome.UNKNOWN: "?",
}
_EXECUTION_PREFIX = f"{KIND_WORDS['execution']:<{KIND_WIDTH}} "


NO_RECORD_LINE = "no record to compare"
CHANGED_MARK = "⚠ changed"  # a snapshot or baseline changed since it was saved
NO_RECORD_REASON = "has no record file, only a write-ahead log: there is nothing to compare"


class Candidate(NamedTuple):
    """One thing to compare with. ``key`` is the execution's file key (executions: their
    path is the root's to say) or the file's path; ``label`` names it as side B.
    ``unavailable``: why it cannot be chosen ("" when it can). ``hidden``: searched but
    not shown (a whole execution id whose line shows it shortened or cut, a file name).
    ``unusable``: what it is, in the words its line says it with ("not UTF-8 text",
    "empty"; "" when it can be chosen), by which the picker counts those it cannot offer."""

    kind: CandidateKind
    key: str
    path: Path | None
    line: str
    label: str
    unavailable: str = ""
    hidden: str = ""
    unusable: str = ""


def _whole_id(execution_id: str, ids: int) -> str:
    """An id to search besides its line, when the line shows less of it (a UUID's first
    8 characters, a long id cut with an ellipsis to ``ids`` cells): pasted whole, it
    still finds its line. ``execution_id`` sanitized."""
    shortened = display_id(execution_id) != execution_id or cell_len(execution_id) > ids
    return execution_id if shortened else ""


def _hidden_of(summary: ExecutionSummary, ids: int) -> str:
    """What an execution's line is also found by: its whole id (``_whole_id``), its
    file's name, as the list and ``ls`` show it (a record named other than its id too),
    and with several roots ``ROOT:ID``, as the command line and the comparison name it."""
    whole = _whole_id(summary.execution_id, ids)
    name = sanitize_line(summary.key.rpartition("/")[2])
    found = f"{whole} {name}" if whole else name
    return f"{found} {summary.root}:{summary.execution_id}" if summary.root else found


def time_cell(text: str) -> str:
    """``2026-01-05 10:00:00`` from a time the record wrote (UTC), padded; blank if none."""
    if len(text) >= 19 and text[10] == "T" and text.endswith(("+00:00", "Z")):
        return f"{text[:10]} {text[11:19]}"  # already UTC (100,000 of them: no parsing)
    utc = utc_text(text) if text else ""
    if len(utc) == 20 and utc[10] == "T":
        return f"{utc[:10]} {utc[11:19]}"
    return sanitize_line(utc)[:TIME_WIDTH].ljust(TIME_WIDTH)


@lru_cache(maxsize=256)  # a few dozen combinations, 100,000 executions
def verdict_marks(codes: VerdictCodes) -> str:
    """The list's three marks in six cells: outcome, integrity, replay (``✓ #✓ ↺``)."""
    outcome, integrity, replay = codes
    mark = "⚠" if integrity in UNTRUSTED_INTEGRITY else _OUTCOME_MARKS[outcome]
    return f"{mark} {integrity_cell(integrity, 2)[0]} {replay_cell(replay, 1)[0]}"


def id_cell(execution_id: str, width: int = ID_WIDTH) -> str:
    """A short execution id in its column, exactly ``width`` cells: padded, or cut with an
    ellipsis (a long id pushed every later column of its line out of line)."""
    return fit(sanitize_line(display_id(execution_id)), width)


def id_width(targets: Iterable[CompareTarget], at_least: int = ID_WIDTH) -> int:
    """The id column's width for these files' ids and ``at_least`` (the list's id column,
    ``ExecutionList.id_width``): as wide as the longest, up to ``MAX_ID_WIDTH``."""
    longest = max((cell_len(sanitize_line(display_id(t.execution_id))) for t in targets), default=0)
    return min(MAX_ID_WIDTH, max(at_least, longest))


def _line(kind: CandidateKind, root: str, ident: str, when: str, rest: str) -> str:
    return f"{KIND_WORDS[kind]:<{KIND_WIDTH}} {root}{ident} {when} {rest}"


def file_candidate(
    target: CompareTarget, *, saved: bool = False, roots: int = 0, ids: int = ID_WIDTH
) -> Candidate:
    """``roots``: the width of the root column (0: one root, none); ``ids``: the id
    column's (``id_width``). With several roots, a file is named as side B by the root it
    was found under, as an execution is (``beta:pinned.json``)."""
    kind: CandidateKind = "saved" if saved else target.kind
    # A narrow picker cuts the end of the line: why not to trust it first, in two words,
    # then what tells it from another file of the same execution (its label, its name),
    # then what it is of (the title two baselines of one execution share). At 80 columns
    # the title first, after the whole mark, left neither label nor name in sight.
    what = [CHANGED_MARK] if target.changed else []
    if target.note:
        what.append(target.note)
    name = shown_name = target.path.name
    ident = target.execution_id
    if len(ident) > ID_WIDTH and name.startswith(ident):  # ``s``'s: the id, then a digest
        shown_name = f"{display_id(ident)}…{name[len(ident) :]}"  # the id is in its column
    what += [shown_name, target.title]
    rest = sanitize_line(" · ".join(what))
    root = root_cell(target.root, roots)
    shown = id_cell(target.execution_id, ids)
    line = _line(kind, root, shown, time_cell(target.when), rest)
    label = f"{target.root}:{name}" if target.root else name
    whole = _whole_id(sanitize_line(target.execution_id), ids)
    if shown_name != name:  # its whole name, pasted, still finds it
        whole = f"{whole} {sanitize_line(name)}".strip()
    return Candidate(kind, str(target.path), target.path, line, label, hidden=whole)


@lru_cache(maxsize=64)
def root_cell(label: str, width: int) -> str:
    """A root's label in its column, cut in its middle when longer, as the list's rows cut
    it (``root_label``; ``width`` 0: one root is open, no column)."""
    return f"{root_label(label, width)} " if width else ""


def root_width(labels: Iterable[str]) -> int:
    """The root column's width for these roots' labels (0 for one root: no column)."""
    shown = [len(sanitize_line(label)) for label in labels]
    return min(max(shown), MAX_ROOT_WIDTH) if len(shown) > 1 else 0


def execution_label(summary: ExecutionSummary, copy: bool = False) -> str:
    """An execution named as side B: its id, after its root's label when several roots are
    open (``beta:681f325e-…``, as ``intentus-tui diff`` names it); ``copy``: its id does
    not tell its file apart (``SharedIds``), so its file's name (``beta:copy.json``)."""
    name = summary.execution_id or summary.key.rpartition("/")[2]
    if copy:
        name = sanitize_line(summary.file_name)
    return f"{summary.root}:{name}" if summary.root else name


def execution_candidate(
    summary: ExecutionSummary,
    codes: VerdictCodes,
    roots: int = 0,
    ids: int = ID_WIDTH,
    copy: bool = False,
) -> Candidate:
    """``roots``: the width of the root column (0: one root, none); ``ids``: the id
    column's; ``copy``: the id does not tell its file apart, whose name the line shows in
    the id column, as the list's row does."""
    # A summary's strings are sanitized already (and 100,000 lines are built at once).
    short = copy_label(summary, ids) if copy else fit(display_id(summary.execution_id), ids)
    what = summary.intent or summary.message
    if summary.source == "wal":  # why first: a narrow picker cuts the end of the line
        what = f"{NO_RECORD_LINE} · {what}" if what else NO_RECORD_LINE
    line = (
        f"{_EXECUTION_PREFIX}{root_cell(summary.root, roots)}{short} "
        f"{time_cell(summary.created)} {verdict_marks(codes)} {what}"
    )
    return Candidate(
        "execution",
        summary.key,
        None,
        line,
        execution_label(summary, copy),
        unavailable_why(summary),
        _hidden_of(summary, ids),
        unusable_word(summary),
    )


# What a file can be and still be compared: a record (whole, recovered, or huge and read
# whole when picked), or JSON that may be a snapshot (``file_operand`` tries it as one).
_COMPARABLE = frozenset(
    {LoadStatus.OK, LoadStatus.SALVAGED, LoadStatus.HEAD_ONLY, LoadStatus.NOT_RECORD}
)


NO_RECORD_WORDS = "with no record"  # known only from its write-ahead log


def unusable_word(summary: ExecutionSummary) -> str:
    """``Candidate.unusable`` of an execution: "" when it can be compared."""
    if summary.source == "wal":
        return NO_RECORD_WORDS
    if summary.load_status in _COMPARABLE:
        return ""
    return FILE_WORDS.get(summary.load_status, "with nothing to compare")


def unavailable_why(summary: ExecutionSummary) -> str:
    """Why the execution cannot be compared ("" when it can): one known only from its log,
    or a file with nothing to compare in it (empty, not JSON, unreadable: offered, then
    refused on enter)."""
    if summary.source == "wal":
        return f"{execution_label(summary)} {NO_RECORD_REASON}"
    if summary.load_status in _COMPARABLE:
        return ""
    name = sanitize_line(summary.file_name)  # a file, not an execution: named as it is
    named = f"{summary.root}:{name}" if summary.root else name
    return f"{named}: {summary.message or 'no record'}: nothing to compare"


def run_candidate(target: CompareTarget, *, roots: int = 0) -> Candidate:
    """An Active Graph run: its whole id (runs made together share the first characters of
    theirs), its time, then its label or goal, its fork and its database's name. Named as a
    side as ``intentus-tui diff`` names it, ``RUNS.db#RUN_ID`` (``beta:`` before it with
    several roots)."""
    what = [part for part in (target.title, target.note, target.path.name) if part]
    root = root_cell(target.root, roots)
    line = _line("run", root, sanitize_line(target.run_id), time_cell(target.when), "")
    line += sanitize_line(" · ".join(what))
    label = f"{target.path.name}#{target.run_id}"
    label = f"{target.root}:{label}" if target.root else label
    return Candidate("run", f"{target.path}#{target.run_id}", target.path, line, label)


def likeliest_first(its_files: Container[Path]) -> Callable[[Candidate], int]:
    """How likely a comparison of the selected execution with each line is, lowest first:
    a snapshot just saved, then its own snapshots and baselines (``its_files``), then any
    other file or execution; an Active Graph run last (it compares with a run only: enter
    on one picks A of two runs, not B of this comparison)."""

    def rank(candidate: Candidate) -> int:
        if candidate.kind == "saved":
            return 0
        if candidate.kind == "run":
            return 3
        return 1 if candidate.path is not None and candidate.path in its_files else 2

    return rank


def typed_run_candidate(path: Path, run_id: str) -> Candidate:
    """A run typed as ``RUNS.db#RUN_ID``."""
    shown = sanitize_line(f"{path}#{run_id}")
    label = f"{path.name}#{run_id}"
    return Candidate("run", f"{path}#{run_id}", path, f"{'run':<{KIND_WIDTH}} {shown}", label)


def candidate_run_id(candidate: Candidate) -> str:
    """The run a run's candidate names (its key is ``DATABASE#RUN_ID``)."""
    return candidate.key[len(str(candidate.path)) + 1 :]


def path_candidate(path: Path) -> Candidate:
    shown = sanitize_line(str(path))
    return Candidate("path", str(path), path, f"{'path':<{KIND_WIDTH}} {shown}", path.name)


# --------------------------------------------------------------------------- building


@dataclass
class ExecutionLines:
    """Execution lines kept between two openings of the picker: a summary that did not
    change keeps its line (building 100,000 of them is most of an opening's cost).

    Kept flat, not as an object per execution (100,000 small objects were walked by every
    full pass of the garbage collector, ~100 ms each, for as long as the app ran): each
    line by the identity of the summary it was made from (``id``: numbers and strings,
    which the collector never walks), and those summaries in one list, which keeps them
    alive, so no other object can take one of their identities meanwhile.
    """

    lines: dict[int, str] = field(default_factory=dict)
    made_from: list[ExecutionSummary] = field(default_factory=list)
    widths: tuple[int, int] = (0, ID_WIDTH)  # the root and id columns the lines were made for

    def candidates(
        self,
        summaries: Iterable[ExecutionSummary],
        codes_of: Callable[[ExecutionSummary], VerdictCodes],
        exclude: str | None = None,
        pause: Callable[[], None] | None = None,
        roots: int = 0,
        ids: int = ID_WIDTH,
        copies: Container[ExecutionSummary] = (),
    ) -> list[Candidate]:
        """Every execution but ``exclude``, newest first; one known only from its
        write-ahead log is listed ``unavailable`` (there is no record to compare). ``pause``
        is called every ``PAUSE_EVERY`` executions (a thread worker leaves the interpreter to
        the keys there). ``roots``: the width of the column that names each one's root
        (``root_width``; 0 with one root open); ``ids``: the id column's (``id_width``);
        ``copies``: the executions whose lines name their files (the list's
        ``shared_ids``). Lines made for other widths are made again."""
        if self.widths != (roots, ids):
            self.lines, self.widths = {}, (roots, ids)
        lines = self.lines
        fresh: dict[int, str] = {}
        listed = [s for s in summaries if s.key != exclude]
        listed.sort(key=_created_key, reverse=True)
        out: list[Candidate] = []
        any_copies = bool(copies)  # usually none: no question asked of each execution
        make = tuple.__new__  # ``Candidate(...)`` less its Python-level ``__new__``
        for done, summary in enumerate(listed, 1):
            copy = any_copies and summary in copies
            # A copy's line is kept under the complement of its summary's identity (never
            # an identity itself): it differs from the line the same summary has alone.
            key = ~id(summary) if copy else id(summary)
            line = lines.get(key)
            if line is None:
                line = execution_candidate(summary, codes_of(summary), roots, ids, copy).line
            fresh[key] = line
            label = execution_label(summary, copy)
            comparable = summary.source != "wal" and summary.load_status in _COMPARABLE
            why, word = (
                ("", "") if comparable else (unavailable_why(summary), unusable_word(summary))
            )
            hidden = _hidden_of(summary, ids)
            row = ("execution", summary.key, None, line, label, why, hidden, word)
            out.append(make(Candidate, row))
            if pause is not None and done % PAUSE_EVERY == 0:
                pause()
        self.lines, self.made_from = fresh, listed
        return out


def _created_key(summary: ExecutionSummary) -> str:
    # Records of one writer share one time format: text order is time order. Undated last.
    return summary.created or ""


def build_candidates(
    files: Sequence[CompareTarget],
    saved: Sequence[Path],
    executions: Sequence[Candidate] = (),
    roots: int = 0,
    ids: int = ID_WIDTH,
) -> list[Candidate]:
    """Every candidate in display order: just saved, snapshots, baselines, records, runs,
    then the executions. ``saved`` (newest last) is shown even when the search of files missed it.
    ``roots`` and ``ids``: the widths of the root and id columns, as in ``ExecutionLines``."""
    saved_order = {path: index for index, path in enumerate(saved)}
    fresh: list[tuple[int, Candidate]] = []
    others: list[Candidate] = []
    found: set[Path] = set()
    for target in files:
        if target.path in saved_order:
            found.add(target.path)
            candidate = file_candidate(target, saved=True, roots=roots, ids=ids)
            fresh.append((saved_order[target.path], candidate))
        elif target.kind == "run":
            others.append(run_candidate(target, roots=roots))
        else:
            others.append(file_candidate(target, roots=roots, ids=ids))
    for path in saved:
        described = describe_file(path) if path not in found else None
        if described is not None:
            candidate = file_candidate(described, saved=True, roots=roots, ids=ids)
            fresh.append((saved_order[path], candidate))
    fresh.sort(key=lambda item: -item[0])
    return [c for _, c in fresh] + others + list(executions)


# --------------------------------------------------------------------------- search


class Hit(NamedTuple):
    """A candidate that matches, with the offsets of its line that matched."""

    position: int  # in the index's candidates
    candidate: Candidate
    offsets: tuple[int, ...]
    score: float


def _lower_same_length(line: str) -> str:
    lowered = line.lower()
    if len(lowered) == len(line):
        return lowered
    # A few characters lower-case to two (İ): keep them, so offsets stay the line's.
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in line)


def _fuzzy_pattern(query: str) -> re.Pattern[str]:
    """The query's characters in order within one line, tried once per line: from the
    newline before it (the text starts with one), each character at its first occurrence
    after the previous one, possessively. So a line that does not match is given up in one
    pass, whatever the query (a lazy ``a.*?b`` backtracks once per occurrence; starting at
    every ``a`` rescans the line once per ``a``)."""
    parts = ["\\n"]
    for char in query:
        escaped = re.escape(char)
        parts.append(f"[^{escaped}\\n]*+({escaped})")
    return re.compile("".join(parts))


def _shown_part(candidate: Candidate) -> tuple[int, ...]:
    """The offsets of the part of ``candidate.hidden`` its line shows (its first
    characters, in the id column), to mark when the whole id was found."""
    line, whole = candidate.line.lower(), candidate.hidden.lower()
    start = line.find(whole[:8])
    if start < 0:
        return ()
    end = start
    while end < len(line) and end - start < len(whole) and line[end] == whole[end - start]:
        end += 1
    return tuple(range(start, end))


class CandidateIndex:
    """The candidates and one lower-cased text of all their lines, for ``search``."""

    def __init__(
        self, candidates: Sequence[Candidate], pause: Callable[[], None] | None = None
    ) -> None:
        """``pause``: called every ``PAUSE_EVERY`` candidates (as in ``ExecutionLines``)."""
        self.candidates = list(candidates)
        lowered: list[str] = []
        starts: list[int] = []
        offset = 1
        for begin in range(0, len(self.candidates), PAUSE_EVERY):
            if begin and pause is not None:
                pause()
            chunk = [
                _lower_same_length(c.line) for c in self.candidates[begin : begin + PAUSE_EVERY]
            ]
            for line in chunk:
                starts.append(offset)
                offset += len(line) + 1
            lowered.extend(chunk)
        # Each line follows a newline, the first one too (see ``_fuzzy_pattern``).
        self._text = "\n" + "\n".join(lowered)
        self._starts = starts
        # The whole ids the lines show shortened, searched as typed only (a fuzzy match
        # running on from a line into an id no line shows would mark nothing it found).
        hidden = [(i, c.hidden.lower()) for i, c in enumerate(self.candidates) if c.hidden]
        self._hidden_text = "\n".join(text for _, text in hidden)
        self._hidden_lines = [i for i, _ in hidden]
        self._hidden_starts = list(accumulate((len(t) + 1 for _, t in hidden[:-1]), initial=0))
        self._scorer = FuzzySearch()
        self._counts: dict[CandidateKind, int] | None = None
        self._unavailable: int | None = None
        self._unusable: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.candidates)

    def counts(self) -> dict[CandidateKind, int]:
        """How many candidates of each kind (counted once)."""
        if self._counts is None:
            counts: dict[CandidateKind, int] = {}
            for candidate in self.candidates:
                counts[candidate.kind] = counts.get(candidate.kind, 0) + 1
            self._counts = counts
        return self._counts

    def unavailable(self) -> int:
        """How many candidates cannot be chosen (executions known only from their log)."""
        if self._unavailable is None:
            self._unavailable = sum(1 for candidate in self.candidates if candidate.unavailable)
        return self._unavailable

    def unusable(self) -> dict[str, int]:
        """How many candidates cannot be chosen, by what they are (``Candidate.unusable``),
        the most first: ``{"not UTF-8 text": 1, "empty": 1}``."""
        if self._unusable is None:
            words = Counter(c.unusable or "unavailable" for c in self.candidates if c.unavailable)
            self._unusable = dict(words.most_common())
        return self._unusable

    def _line_at(self, offset: int) -> int:
        return bisect_right(self._starts, offset) - 1

    def _line_end(self, index: int) -> int:
        return self._starts[index + 1] if index + 1 < len(self._starts) else len(self._text)

    def search(self, query: str, limit: int = DEFAULT_LIMIT) -> tuple[list[Hit], bool]:
        """The best of the first ``limit`` matching lines, best first, and whether more lines
        match. Spaces in the query are ignored; case is ignored."""
        needle = "".join(query.split()).lower()
        if not needle:
            hits = [Hit(i, c, (), 0.0) for i, c in enumerate(self.candidates[:limit])]
            return hits, len(self.candidates) > limit
        text = self._text
        found: dict[int, tuple[int, ...]] = {}
        exact: set[int] = set()
        more = False
        # First the lines holding the query as typed (they rank first), then the fuzzy ones.
        position = text.find(needle)
        while position != -1:
            index = self._line_at(position)
            if len(found) >= limit:
                more = True
                break
            start = position - self._starts[index]
            found[index] = tuple(range(start, start + len(needle)))
            exact.add(index)
            position = text.find(needle, self._line_end(index))
        whole: set[int] = set()  # found by a whole id the line shows shortened
        position = self._hidden_text.find(needle)
        while position != -1 and not more:
            at = bisect_right(self._hidden_starts, position) - 1
            index = self._hidden_lines[at]
            if index not in found:
                if len(found) >= limit:
                    more = True
                    break
                found[index] = _shown_part(self.candidates[index])
                exact.add(index)
                whole.add(index)
            following = at + 1
            if following >= len(self._hidden_starts):
                break
            position = self._hidden_text.find(needle, self._hidden_starts[following])
        pattern = _fuzzy_pattern(needle)
        position = 0
        while not more:
            match = pattern.search(text, position)
            if match is None:
                break
            index = self._line_at(match.start(1))
            if index not in found:
                if len(found) >= limit:
                    more = True
                    break
                base = self._starts[index]
                found[index] = tuple(match.start(g) - base for g in range(1, len(needle) + 1))
            position = self._line_end(index) - 1  # the newline before the next line
        score = self._scorer.score
        hits = []
        for index, offsets in found.items():
            candidate = self.candidates[index]
            if index in whole:  # scored as the same letters found together on a line
                value = score(needle, range(len(needle))) * 1.5
            else:
                value = score(candidate.line.lower(), offsets) * (1.5 if index in exact else 1.0)
            hits.append(Hit(index, candidate, offsets, value))
        hits.sort(key=lambda hit: (-hit.score, hit.position))
        return hits, more
