"""Which execution ids more than one file holds (copies of a record), kept up to date as
files come, change and go: always what counting every file again would say."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.shared_ids import SharedIds, id_of, misnamed
from tests.tui.test_list_model import summary


def copy_of(s: ExecutionSummary, name: str, **kw: object) -> ExecutionSummary:
    """``s`` read from another file (a copy keeps the id inside it)."""
    return replace(s, key=name, **kw)  # type: ignore[arg-type]


def counted_again(summaries: list[ExecutionSummary]) -> set[Hashable]:
    counts = Counter(id_of(s) for s in summaries)
    return {ident for ident, n in counts.items() if n > 1}


def test_no_copies_no_shared_ids() -> None:
    shared = SharedIds([summary(n) for n in range(50)])
    assert not shared and shared.shared == set() and shared.version == 0
    assert summary(1) not in shared


def test_a_copy_shares_its_id_until_it_goes() -> None:
    original = summary(1)
    copy = copy_of(original, "aaaaaaaa.json")
    shared = SharedIds([original, summary(2)])
    assert shared.update([copy]) is True
    assert original in shared and copy in shared and summary(2) not in shared
    version = shared.version
    # the original changes on disk (its old summary dropped, the new one added): still a copy
    changed = replace(original, intent="Changed")
    assert shared.update([changed], [original]) is False
    assert shared.version == version and changed in shared
    assert shared.update([], [copy]) is True  # the copy is deleted
    assert not shared and changed not in shared


def test_two_copies_in_one_batch_and_per_root() -> None:
    s = summary(3)
    assert SharedIds([s, copy_of(s, "trunc-01.json")]).shared == {s.execution_id}
    # in two roots the root's label tells the rows apart: not copies
    name = f"{s.execution_id}.json"
    a, b = (
        replace(s, root="prod", key=f"prod/{name}"),
        replace(s, root="stage", key=f"stage/{name}"),
    )
    assert not SharedIds([a, b])
    assert SharedIds([a, b, replace(a, key="prod/copy.json")]).shared == {("prod", s.execution_id)}


def test_the_file_name_leaves_out_the_roots_label() -> None:
    s = replace(summary(4), root="prod", key="prod/copy of x.json")
    assert s.file_name == "copy of x.json" and summary(4).file_name == "00004.json"


FILES = st.lists(
    st.tuples(
        st.sampled_from(["add", "remove"]),
        st.integers(0, 12),  # the file
        st.integers(0, 4),  # the id inside it
    ),
    max_size=40,
)


@given(FILES, st.booleans())
@settings(max_examples=150, deadline=None)
def test_shared_ids_always_match_counting_again(
    ops: list[tuple[str, int, int]], several_roots: bool
) -> None:
    """Files added, replaced and removed one at a time, in one root or in two."""
    files: dict[str, ExecutionSummary] = {}
    shared = SharedIds()
    for op, file, ident in ops:
        root = f"r{file % 2}" if several_roots else ""
        name = f"{root}/f{file}.json" if root else f"f{file}.json"
        old = files.get(name)
        before, version, changed = set(shared.shared), shared.version, False
        renamed_before = set(shared.misnamed)
        if op == "add":
            # a file named after the id it holds, or not
            new = copy_of(
                summary(ident),
                name if file % 3 else f"{root}/{ident:05d}.json".lstrip("/"),
                root=root,
            )
            files[name] = new
            changed = shared.update([new], [old] if old is not None else [])
        elif old is not None:
            del files[name]
            changed = shared.update([], [old])
        assert shared.shared == counted_again(list(files.values()))
        # files not named after their id: named in their rows too
        assert shared.misnamed == {k for k, s in files.items() if misnamed(s)}
        # "changed" (and a new version, which redraws the list) only when a set changed
        assert changed == (shared.shared != before or shared.misnamed != renamed_before)
        assert shared.version == version + changed
        assert all(
            (s in shared) == (id_of(s) in shared.shared or misnamed(s)) for s in files.values()
        )


def test_a_record_not_named_after_its_id_names_its_file() -> None:
    """Renamed (or an id that had to be sanitized): its id does not find its file."""
    named = summary(5)
    renamed = replace(named, key="renamed.json")
    shared = SharedIds([named])
    assert not shared and named not in shared
    assert shared.update([renamed], [named]) is True  # the file renamed
    assert renamed in shared and not shared.shared  # named by its file, not a copy
    assert shared.update([], [renamed]) is True and not shared
    wal_only = replace(named, key="x.wal", source="wal")
    assert not misnamed(wal_only)
