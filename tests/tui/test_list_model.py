"""The list model: incremental updates end exactly where a full re-sort would."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.tui.presenters.list_model import (
    SORTS,
    VIEWS,
    Group,
    ListModel,
    Sort,
    View,
    group_of,
)


def summary(
    n: int, state: str = "completed", replayable: bool = True, **kw: object
) -> ExecutionSummary:
    base = ExecutionSummary(
        key=f"{n:05d}.json",
        execution_id=f"exec-{n:05d}",
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
    [("completed", True), ("completed", False), ("incomplete", False), ("corrupted", False)]
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
    query=st.sampled_from(["", "trans", "0001", "incomplete"]),
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


@settings(max_examples=60, deadline=None)
@given(
    batches=BATCHES,
    view=st.sampled_from(VIEWS),
    sort=st.sampled_from(SORTS),
    query=st.sampled_from(["", "trans", "0001", "incomplete"]),
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


def test_grouped_rows_have_one_header_per_non_empty_group() -> None:
    model = ListModel()
    model.replace_all([summary(1), summary(2, "incomplete", False), summary(3)])
    headers = [model.header_of(i) for i in range(len(model)) if model.is_header(i)]
    assert headers == [(Group.REPLAYABLE, 2), (Group.INCOMPLETE, 1)]
    model.apply([], ["00002.json"])
    assert [model.header_of(i) for i in range(len(model)) if model.is_header(i)] == [
        (Group.REPLAYABLE, 2)
    ]
    assert model.nearest_item(0) == 1  # a header is never selected


def test_new_rows_merge_and_many_replaced_rows_re_sort() -> None:
    model = ListModel()
    assert model.apply([summary(n) for n in range(3000)]) is False  # merged, whatever the size
    assert model.apply([summary(n) for n in range(3000, 6000)]) is False
    assert model.apply([summary(n, "incomplete", False) for n in range(2500)]) is True
    assert model.counts["incomplete"] == 2500
    for n in range(2500):
        model.apply([summary(n)])  # back, one at a time
    assert model.apply([summary(5, "corrupted", False)]) is False  # moved with bisect
    assert group_of(model.summaries["00005.json"]) is Group.CORRUPTED
    assert model.row_of("00005.json") == len(model) - 1  # last group, last row
    assert model.counts["corrupted"] == 1 and model.counts["replayable"] == 5999


def test_small_batches_into_many_rows_match_a_rebuild() -> None:
    """As the scan of a big directory sends them: batches far smaller than the list (spliced
    into the shown rows, only noted for the every-execution order), then a removal and a
    filter that need that order: all end where a full re-sort would."""
    states = [("completed", True), ("completed", False), ("incomplete", False)]
    numbers = [(n * 7919) % 6000 for n in range(6000)]  # every n once, out of order
    for view in VIEWS[:3]:
        for sort in SORTS:
            model = _model(view, sort, "")
            model.apply([summary(n, *states[n % 3]) for n in numbers[:3000]])
            for start in range(3000, 6000, 50):
                model.apply([summary(n, *states[n % 3]) for n in numbers[start : start + 50]])
            _assert_matches_a_rebuild(model, view, sort, "")
            model.apply([], [f"{n:05d}.json" for n in numbers[:10]])
            _assert_matches_a_rebuild(model, view, sort, "")
            model.apply([summary(n, "corrupted", False) for n in range(6000, 6040)])
            model.set_query("trans")
            _assert_matches_a_rebuild(model, view, sort, "trans")
            model.set_query("")
            _assert_matches_a_rebuild(model, view, sort, "")
