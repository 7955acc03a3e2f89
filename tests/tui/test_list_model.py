"""The list model: incremental updates end exactly where a full re-sort would."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.tui.presenters.list_groups import Group, group_of
from intentus_tui.tui.presenters.list_model import (
    FAILURES_FIRST,
    VIEWS,
    ListModel,
    View,
    size_of,
)
from intentus_tui.tui.presenters.list_order import (
    SORTS,
    Sort,
)
from intentus_tui.tui.presenters.list_search import NEGATED, query_terms


def summary(
    n: int, state: str = "completed", replayable: bool = True, **kw: object
) -> ExecutionSummary:
    """A summary; ``state`` "failed" is a completed one whose final response is an error,
    "tampered" one whose envelope hash mismatches."""
    if state == "failed":
        state, kw = "completed", {"final_status": "error", **kw}
    elif state == "tampered":
        state, kw = "completed", {"hash_status": HashStatus.MISMATCH, **kw}
    base = ExecutionSummary(
        key=f"{n:05d}.json",
        execution_id=f"{n:05d}",  # its file is named after it
        created=f"2026-01-05T10:{n % 60:02d}:{(n * 7) % 60:02d}+00:00",
        intent=["Summarize", "translate", "Classify"][n % 3],
        agent="agent-a",
        strategy="direct",
        state=ExecutionState(state),
        load_status=LoadStatus.OK,
        message="",
        replayable=replayable,
        replay_reason=None if replayable else "manually_invalidated",
        hash_status=HashStatus.MATCH,
        hash_form="runtime",
        matched_form="runtime",
        event_count=5,
        attempts=1 + n % 3,
        fallbacks=0,
        chain="agent-a ✓",
        in_flight_agent=None,
        final_status="ok",
        problems=0,
        size=100,
        mtime_ns=0,
    )
    return replace(base, **kw) if kw else base  # type: ignore[arg-type]


STATES = st.sampled_from(
    [
        ("completed", True),
        ("completed", False),
        ("incomplete", False),
        ("corrupted", False),
        ("failed", True),
        ("tampered", True),
    ]
)
OPS = st.lists(
    st.tuples(st.sampled_from(["upsert", "remove"]), st.integers(0, 40), STATES), max_size=60
)
# Batches as the scan and the watcher send them: several upserts (a key may repeat: the
# last one wins) and removals at once, big enough to take the merge path too.
BATCHES = st.lists(
    st.tuples(
        st.lists(st.tuples(st.integers(0, 120), STATES), max_size=80),
        st.lists(st.integers(0, 120), max_size=10),
    ),
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(
    ops=OPS,
    view=st.sampled_from(VIEWS),
    sort=st.sampled_from(SORTS),
    query=st.sampled_from(["", "trans", "0001", "incomplete", "replayable", "not replayable"]),
)
def test_incremental_updates_match_a_rebuild(ops, view, sort, query) -> None:  # type: ignore[no-untyped-def]
    model = _model(view, sort, query)
    for op, n, (state, replayable) in ops:
        if op == "upsert":
            model.apply([summary(n, state, replayable)])
        else:
            model.apply([], [f"{n:05d}.json"])
    _assert_matches_a_rebuild(model, view, sort, query)


def _model(view: View, sort: Sort, query: str) -> ListModel:
    model = ListModel()
    model.view, model.sort = view, sort
    model.set_query(query)
    return model


def _assert_matches_a_rebuild(model: ListModel, view: View, sort: Sort, query: str) -> None:
    fresh = _model(view, sort, query)
    fresh.replace_all(model.summaries.values())
    assert model.rows == fresh.rows
    assert +model.counts == +fresh.counts
    assert model.shown_count == fresh.shown_count
    assert model.shared_ids.shared == fresh.shared_ids.shared


@settings(max_examples=60, deadline=None)
@given(
    batches=BATCHES,
    view=st.sampled_from(VIEWS),
    sort=st.sampled_from(SORTS),
    query=st.sampled_from(["", "trans", "0001", "incomplete", "replayable", "not replayable"]),
)
def test_batched_updates_match_a_rebuild(batches, view, sort, query) -> None:  # type: ignore[no-untyped-def]
    model = _model(view, sort, query)
    for upserts, removals in batches:
        changed = [summary(n, state, replayable) for n, (state, replayable) in upserts]
        model.apply(changed, [f"{n:05d}.json" for n in removals])
    _assert_matches_a_rebuild(model, view, sort, query)
    for row in range(len(model)):  # every shown execution is found where it is
        key = model.key_at(row)
        assert key is None or model.row_of(key) == row
    # A filter typed now filters every execution in order: replaced and removed rows are
    # gone from it too, whether they had been put in order yet or not.
    model.set_query("0")
    _assert_matches_a_rebuild(model, view, sort, "0")


@settings(max_examples=60, deadline=None)
@given(batches=BATCHES)
def test_copies_of_an_id_are_known_through_every_update(batches) -> None:  # type: ignore[no-untyped-def]
    """Files holding one execution id (copies of a record): after each batch, the ids
    shared are those that counting every file again finds, and ``copies`` their files."""
    model = ListModel()
    for upserts, removals in batches:
        changed = [  # ids shared by every ninth file; a file named after its id or not
            summary(n, state, replayable, execution_id=f"{n % 9:05d}" if n % 2 else f"{n:05d}")
            for n, (state, replayable) in upserts
        ]
        model.apply(changed, [f"{n:05d}.json" for n in removals])
        counts = Counter(s.execution_id for s in model.summaries.values())
        assert model.shared_ids.shared == {i for i, n in counts.items() if n > 1}
        assert {s.key for s in model.copies()} == {
            s.key
            for s in model.summaries.values()
            if counts[s.execution_id] > 1 or s.key != f"{s.execution_id}.json"
        }


def test_grouped_rows_have_one_header_per_non_empty_group() -> None:
    model = ListModel()
    model.replace_all([summary(1), summary(2, "incomplete", False), summary(3)])
    headers = [model.header_of(i) for i in range(len(model)) if model.is_header(i)]
    assert headers == [(Group.IN_FLIGHT, 1), (Group.SUCCEEDED, 2)]
    model.apply([], ["00002.json"])
    assert [model.header_of(i) for i in range(len(model)) if model.is_header(i)] == [
        (Group.SUCCEEDED, 2)
    ]
    assert model.nearest_item(0) == 1  # a header is never selected


def test_new_rows_merge_and_many_replaced_rows_re_sort() -> None:
    model = ListModel()
    assert model.apply([summary(n) for n in range(3000)]) is False  # merged, whatever the size
    assert model.apply([summary(n) for n in range(3000, 6000)]) is False
    assert model.apply([summary(n, "incomplete", False) for n in range(2500)]) is True
    assert _tally(model)["in_flight"] == 2500
    for n in range(2500):
        model.apply([summary(n)])  # back, one at a time
    assert model.apply([summary(5, "corrupted", False)]) is False  # moved with bisect
    assert group_of(model.summaries["00005.json"]) is Group.UNKNOWN
    assert model.row_of("00005.json") == 1  # failures first: right under its header
    tally = _tally(model)
    assert tally["unknown"] == 1 and tally["succeeded"] == 5999


def _tally(model: ListModel) -> Counter[str]:
    """The model's counts by outcome value."""
    tally: Counter[str] = Counter()
    for (outcome, _, _), n in model.counts.items():
        tally[outcome.value] += n
    return tally


def test_small_batches_into_many_rows_match_a_rebuild() -> None:
    """As the scan of a big directory sends them: batches far smaller than the list (spliced
    into the shown rows, only noted for the every-execution order), then a removal and a
    filter that need that order: all end where a full re-sort would."""
    states = [("completed", True), ("completed", False), ("incomplete", False)]
    # Batches of 50 into 1,200-2,400 rows: past the one-by-one inserts (``_MERGE_AT``), under
    # the share merged by one sort (1/16 of the rows), so each is spliced in.
    numbers = [(n * 7919) % 2400 for n in range(2400)]  # every n once, out of order
    for view in VIEWS[:3]:
        for sort in SORTS:
            model = _model(view, sort, "")
            model.apply([summary(n, *states[n % 3]) for n in numbers[:1200]])
            for start in range(1200, 2400, 50):
                model.apply([summary(n, *states[n % 3]) for n in numbers[start : start + 50]])
            _assert_matches_a_rebuild(model, view, sort, "")
            model.apply([], [f"{n:05d}.json" for n in numbers[:10]])
            _assert_matches_a_rebuild(model, view, sort, "")
            model.apply([summary(n, "corrupted", False) for n in range(2400, 2440)])
            model.set_query("trans")
            _assert_matches_a_rebuild(model, view, sort, "trans")
            # Arriving while a filter hides some: the every-execution order is not the
            # rows shown (those are taken as that order only when they hold everything).
            model.apply([summary(n, *states[n % 3]) for n in range(2440, 2480)])
            _assert_matches_a_rebuild(model, view, sort, "trans")
            model.set_query("")
            _assert_matches_a_rebuild(model, view, sort, "")


def _headers(model: ListModel) -> list[tuple[Group, int]]:
    return [model.header_of(i) for i in range(len(model)) if model.is_header(i)]


def test_failures_first_puts_what_needs_attention_on_top() -> None:
    """The default view groups by verdict: untrusted, unknown, failed, in flight, then the
    successes (those that cannot be replayed after those that can)."""
    model = ListModel()
    model.replace_all(
        [
            summary(1),
            summary(2, "completed", False),
            summary(3, "incomplete", False),
            summary(4, "failed"),
            summary(5, "corrupted", False),
            summary(6, "tampered"),
            summary(7, wal_chain_ok=False, wal_problem="entry 3: hash chain breaks"),
            summary(8, "failed", False),
        ]
    )
    assert model.view is FAILURES_FIRST
    assert _headers(model) == [
        (Group.UNTRUSTED, 2),
        (Group.UNKNOWN, 1),
        (Group.FAILED, 2),
        (Group.IN_FLIGHT, 1),
        (Group.SUCCEEDED, 1),
        (Group.SUCCEEDED_NOT_REPLAYABLE, 1),
    ]
    order = [model.key_at(i) for i in range(len(model)) if not model.is_header(i)]
    assert order[:2] == ["00007.json", "00006.json"]  # newest first within a group
    assert order[-2:] == ["00001.json", "00002.json"]
    model.set_view(next(v for v in VIEWS if v.name == "attention"))
    assert [g for g, _ in _headers(model)] == [
        Group.UNTRUSTED,
        Group.UNKNOWN,
        Group.FAILED,
        Group.IN_FLIGHT,
    ]
    assert model.shown_count == 6
    # an edit that repairs the failure moves it to the successes (one bisect), and out
    model.apply([summary(4)])
    assert model.shown_count == 5 and model.row_of("00004.json") is None
    model.set_view(FAILURES_FIRST)
    assert model.group(model.summaries["00004.json"]) is Group.SUCCEEDED
    model.set_query("chain_broken")  # the filter searches the verdict's words too
    assert [model.key_at(i) for i in range(len(model))] == [None, "00007.json"]


def test_the_verdict_is_computed_once_per_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-sorting and re-filtering reuse each summary's verdict codes."""
    from intentus_tui.tui.presenters import list_groups

    calls = Counter[str]()
    real = list_groups.verdict_of

    def counting(s: ExecutionSummary) -> object:
        calls[s.key] += 1
        return real(s)

    monkeypatch.setattr(list_groups, "verdict_of", counting)
    model = ListModel()
    model.replace_all(
        [summary(n, *(("completed", True), ("failed", True))[n % 2]) for n in range(50)]
    )
    for sort in SORTS:
        model.set_sort(sort)
    for view in VIEWS:
        model.set_view(view)
    model.set_query("failed")
    assert set(calls.values()) == {1}
    model.apply([summary(3)])  # a changed summary gets a new verdict
    assert calls["00003.json"] == 2


def _naive_rows(model: ListModel) -> list[tuple[object, ...]]:
    """The shown rows computed the plain way: sort the row-key tuples, keep the matches,
    put a header before each group's first row."""
    keys = sorted(model._row_key(s) for s in model.summaries.values() if model._matches(s))
    rows: list[tuple[object, ...]] = []
    for row_key in keys:
        if model.view.grouped and (not rows or rows[-1][0] != row_key[0]):
            rows.append((row_key[0], 0))
        rows.append(row_key)
    return rows


@settings(max_examples=80, deadline=None)
@given(
    items=st.lists(
        st.tuples(
            st.integers(0, 300), STATES, st.sampled_from(["", "2026-01-05T09:00:00Z", "garbage"])
        ),
        max_size=120,
    ),
    view=st.sampled_from(VIEWS),
    sort=st.sampled_from(SORTS),
    query=st.sampled_from(["", "trans", "incomplete", "replayable", "not_replayable"]),
)
def test_rows_equal_the_plain_sort_of_every_row_key(items, view, sort, query) -> None:  # type: ignore[no-untyped-def]
    """The field-by-field sort and the sliced groups give exactly the plain sort's rows,
    missing and unparseable times included."""
    model = _model(view, sort, query)
    model.replace_all(
        summary(n, state, replayable, **({"created": created} if created else {}))
        for n, (state, replayable), created in items
    )
    assert model.rows == _naive_rows(model)
    for other in SORTS:
        model.set_sort(other)
        assert model.rows == _naive_rows(model)
    model.set_query("")
    assert model.rows == _naive_rows(model)
    if model.view.only is None:
        assert model.shown_count == len(model.summaries)
    # the rows a view shows are the count the header gives of its groups
    assert model.shown_count == size_of(model.view.only, model.counts)


def test_the_newest_execution_is_the_last_created_and_no_time_counts_as_oldest() -> None:
    model = ListModel()
    assert model.newest() is None
    model.replace_all(
        [
            summary(1, created="2026-01-05T10:00:00Z"),
            summary(2, created="2026-01-05T11:00:00Z"),
            summary(3, created="", mtime_ns=10**18),  # no time: not the newest, however fresh
        ]
    )
    newest = model.newest()
    assert newest is not None and newest.key == "00002.json"
    among = model.newest([model.summaries["00001.json"], model.summaries["00003.json"]])
    assert among is not None and among.key == "00001.json"


@settings(max_examples=40, deadline=None)
@given(
    items=st.lists(st.tuples(st.integers(0, 300), STATES), max_size=80),
    view=st.sampled_from(VIEWS),
    typed=st.sampled_from(
        [
            "trans inc",
            "0001 sum",
            "comp x",
            "  tr",
            "failed",
            "replayables",
            "not replayable x",
            "not_replayable",
            "replayable sum",
        ]
    ),
)
def test_typing_a_filter_letter_by_letter_equals_filtering_from_scratch(items, view, typed) -> None:  # type: ignore[no-untyped-def]
    """Each keystroke that extends the query searches only the rows already shown: the
    result is what a fresh filter of every execution gives, then backspacing widens again."""
    model = _model(view, SORTS[0], "")
    model.replace_all(summary(n, state, replayable) for n, (state, replayable) in items)
    for end in [*range(1, len(typed) + 1), *range(len(typed) - 1, -1, -1)]:
        model.set_query(typed[:end])
        assert model.rows == _naive_rows(model), typed[:end]


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("upsert"), st.integers(0, 40), STATES),
            st.tuples(st.just("remove"), st.integers(0, 40), STATES),
            st.tuples(st.just("sort"), st.integers(0, len(SORTS) - 1), STATES),
            st.tuples(st.just("burst"), st.integers(0, 40), STATES),
        ),
        max_size=50,
    ),
    view=st.sampled_from(VIEWS),
)
def test_sorts_between_live_changes_match_a_rebuild(steps, view) -> None:  # type: ignore[no-untyped-def]
    """The newest-first order a sort keeps follows live changes (one by one, or dropped
    for a burst): every later sort gives the rows of a fresh model."""
    model = _model(view, SORTS[0], "")
    model.replace_all(summary(n) for n in range(0, 40, 3))
    for op, n, (state, replayable) in steps:
        if op == "upsert":
            model.apply([summary(n, state, replayable, created=f"2026-01-0{1 + n % 3}T10:00Z")])
        elif op == "remove":
            model.apply([], [f"{n:05d}.json"])
        elif op == "burst":  # as many as take the merge path
            model.apply([summary(m, state, replayable) for m in range(n, n + 40)])
        else:
            model.set_sort(SORTS[n])
            _assert_matches_a_rebuild(model, view, SORTS[n], "")
    _assert_matches_a_rebuild(model, view, model.sort, "")


STATE_CYCLE = [
    ("completed", True),
    ("failed", True),
    ("incomplete", False),
    ("tampered", True),
    ("completed", False),
]


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.name)
def test_a_sort_job_run_on_another_thread_gives_the_rows_of_a_sort_at_once(view: View) -> None:
    import threading

    items = [summary(n, *STATE_CYCLE[n % len(STATE_CYCLE)]) for n in range(200)]
    for sort in SORTS:
        at_once = _model(view, SORTS[0], "")
        at_once.replace_all(items)
        at_once.set_sort(sort)
        elsewhere = _model(view, SORTS[0], "")
        elsewhere.replace_all(items)
        job = elsewhere.sort_job(sort)
        results: list[tuple[object, ...]] = []
        thread = threading.Thread(target=lambda: results.append(job.run()))  # noqa: B023
        thread.start()
        thread.join()
        assert elsewhere.finish_sort(job, results[0])  # type: ignore[arg-type]
        assert elsewhere.sort is sort
        assert elsewhere.rows == at_once.rows


def test_a_sort_job_made_before_a_change_is_refused() -> None:
    model = ListModel()
    model.replace_all(summary(n) for n in range(20))
    rows = list(model.rows)
    job = model.sort_job(SORTS[1])
    model.apply([summary(99)])
    assert model.is_stale(job)
    assert not model.finish_sort(job, job.run())
    assert model.sort is SORTS[0] and model.row_of("00099.json") is not None
    assert len(model.rows) == len(rows) + 1
    regrouped = model.sort_job(SORTS[1])
    model.set_view(next(v for v in VIEWS if not v.grouped))
    assert not model.finish_sort(regrouped, regrouped.run())
    fresh = model.sort_job(SORTS[1])
    assert model.finish_sort(fresh, fresh.run()) and model.sort is SORTS[1]


def test_searched_texts_made_on_another_thread_are_those_of_a_first_search() -> None:
    import threading

    items = [summary(n, *STATE_CYCLE[n % len(STATE_CYCLE)]) for n in range(60)]
    model = ListModel()
    model.replace_all(items)
    missing = model.missing_haystacks()
    assert len(missing) == 60
    texts: list[str] = []
    thread = threading.Thread(target=lambda: texts.extend(model.make_haystacks(missing)))
    thread.start()
    thread.join()
    model.apply([summary(7, "failed", True)])  # changed meanwhile: its text is not kept
    assert model.adopt_haystacks(missing, texts) == 59
    assert model.missing_haystacks() == [model.summaries["00007.json"]]
    searched = ListModel()
    searched.replace_all(model.summaries.values())
    searched.set_query("failed")
    model.set_query("failed")
    assert model.rows == searched.rows
    assert model._every_haystack() == searched._every_haystack()


def test_a_verdict_word_finds_the_rows_with_that_verdict_not_their_groups_other_kinds() -> None:
    """``/tampered`` finds tampered rows, not the chain-broken ones that share their group
    ("Untrusted: tampered or chain broken"); ``/untrusted`` finds both."""
    from intentus_tui.core.model import HashStatus

    tampered = summary(1, hash_status=HashStatus.MISMATCH)
    broken = summary(2, wal_chain_ok=False, wal_state="completed", source="record+wal")
    fine = summary(3)
    model = ListModel()
    model.replace_all([tampered, broken, fine])

    def found(query: str) -> set[str]:
        model.set_query(query)
        return {k for row in range(len(model)) if (k := model.key_at(row)) is not None}

    assert found("tampered") == {tampered.key}
    assert found("chain broken") == {broken.key}
    assert found("untrusted") == {tampered.key, broken.key}


def test_replayable_finds_the_replayable_executions_only_and_not_replayable_the_others() -> None:
    """Every execution that is not replayable has "not replayable" among its words: typed
    whole, ``replayable`` is asked of the verdict instead, and ``not replayable`` (or
    ``not_replayable``) finds the others. A tampered record whose header still says
    replayable is not; text and the words being typed are searched as before."""
    replayable = summary(1)
    invalidated = summary(2, replayable=False)
    tampered = summary(3, "tampered")  # its header says replayable: true
    incomplete = summary(
        4, "incomplete", replayable=False, final_status=None, replay_reason="execution_incomplete"
    )
    model = ListModel()
    model.replace_all([replayable, invalidated, tampered, incomplete])

    def found(query: str) -> set[str]:
        model.set_query(query)
        return {k for row in range(len(model)) if (k := model.key_at(row)) is not None}

    others = {invalidated.key, tampered.key, incomplete.key}
    assert found("replayable") == {replayable.key}
    assert found("REPLAYABLE") == {replayable.key}
    assert found("not replayable") == others
    assert found("not_replayable") == others
    assert found("  not   replayable ") == others
    assert found("replayable 00001") == {replayable.key}
    assert found("not replayable manually") == {invalidated.key}  # its reason's words
    assert found("replay") == others | {replayable.key}  # still being typed: text
    assert found("not replayab") == set()  # every execution's words hold it
    assert found("replayable not") == {replayable.key}  # "not" waits for its word
    assert found("00003") == {tampered.key}


def test_trusted_and_complete_typed_whole_leave_out_their_opposites() -> None:
    """ "trusted" is the end of "untrusted", "complete" of "incomplete": typed whole, each
    finds its own executions only; being typed, it is text as before."""
    verified = summary(1)
    tampered = summary(2, "tampered")
    incomplete = summary(
        3, "incomplete", replayable=False, final_status=None, replay_reason="execution_incomplete"
    )
    model = ListModel()
    model.replace_all([verified, tampered, incomplete])

    def found(query: str) -> set[str]:
        model.set_query(query)
        return {k for row in range(len(model)) if (k := model.key_at(row)) is not None}

    assert found("untrusted") == {tampered.key}
    assert found("trusted") == {verified.key, incomplete.key}
    assert found("trusted 00001") == {verified.key}
    assert found("truste") == {verified.key, tampered.key, incomplete.key}  # being typed
    assert found("incomplete") == {incomplete.key}
    assert found("complete") == {verified.key, tampered.key}
    assert found("completed") == {verified.key, tampered.key}
    assert found("complet") == {verified.key, tampered.key, incomplete.key}
    assert found("trusted complete") == {verified.key}


def test_not_and_a_word_finds_the_executions_without_it() -> None:
    """ "not untrusted" is every execution but the untrusted ones (it found exactly those),
    "not complete" the ones not completed, "not trusted" the untrusted ones; typed on
    from a "not", the rows are searched again (a longer word is absent from more)."""
    verified = summary(1)
    tampered = summary(2, "tampered")
    incomplete = summary(
        3, "incomplete", replayable=False, final_status=None, replay_reason="execution_incomplete"
    )
    failed = summary(4, "failed")
    model = ListModel()
    model.replace_all([verified, tampered, incomplete, failed])

    def found(query: str) -> set[str]:
        model.set_query(query)
        return {k for row in range(len(model)) if (k := model.key_at(row)) is not None}

    everyone = {verified.key, tampered.key, incomplete.key, failed.key}
    assert found("untrusted") == {tampered.key}
    assert found("not untrusted") == everyone - {tampered.key}
    assert found("untrusted not") == {tampered.key}
    assert found("not trusted") == {tampered.key}
    assert found("not complete") == {incomplete.key}
    assert found("not failed") == everyone - {failed.key}
    assert found("not failed not untrusted") == {verified.key, incomplete.key}
    assert found("not u") == set()  # every execution's text holds a "u"
    assert found("not untr") == everyone - {tampered.key}  # typed on: found again


def test_a_filter_s_terms_join_not_to_the_verdict_term_after_it() -> None:
    assert query_terms("Not Replayable") == ("not_replayable",)
    assert query_terms("not replayables") == (NEGATED + "replayables",)
    assert query_terms("not failed") == (NEGATED + "failed",)
    assert query_terms("replayable not") == ("replayable",)  # its word not typed yet
    assert query_terms("not not replayable") == (NEGATED + "not", "replayable")


def test_the_succeeded_view_shows_every_success_as_the_header_counts_them() -> None:
    """Replayable or not, a success is in the "succeeded" view; an untrusted record is not
    (its outcome is unknown), whatever its header claims."""
    items = [summary(1), summary(2, replayable=False), summary(3, "tampered"), summary(4, "failed")]
    model = ListModel()
    model.replace_all(items)
    model.set_view(next(v for v in VIEWS if v.name == "succeeded"))
    assert {model.key_at(row) for row in range(len(model))} == {"00001.json", "00002.json"}
    assert model.shown_count == size_of(model.view.only, model.counts) == 2
    model.set_view(next(v for v in VIEWS if v.name == "not_replayable"))
    assert [model.key_at(row) for row in range(len(model))] == ["00002.json"]
