"""The searched texts are kept as UTF-8 bytes (half the memory of a ``str`` holding one
check mark): a filter must find exactly what a search of the text finds, whatever the
execution's names hold (marks, accents, CJK, a file name's undecodable bytes) and
whatever is typed."""

from __future__ import annotations

import sys
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.tui.presenters.list_groups import kind_of
from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_search import (
    NEGATED,
    as_searched,
    found_in,
    haystack_of,
    query_terms,
    searched_words,
    term_found,
    unshown_match,
)
from tests.tui.test_list_model import summary

# What names may hold: marks the rows draw, accents, CJK, and an undecodable byte of a
# file name as Python reads it (a lone surrogate).
_NAME = st.text(alphabet=st.sampled_from("abcXYZ-_ .é中✓✗…→⚠↺#?\udcff"), min_size=0, max_size=12)


def _as_text(haystack: bytes) -> str:
    return haystack.decode("utf-8", "surrogatepass")


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(0, 50),
    state=st.sampled_from(["completed", "incomplete", "failed", "tampered"]),
    intent=_NAME,
    agent=_NAME,
    key=_NAME,
    typed=_NAME,
    cut=st.tuples(st.integers(0, 400), st.integers(1, 12)),
)
def test_a_term_is_found_in_the_bytes_exactly_where_the_text_holds_it(
    n: int,
    state: str,
    intent: str,
    agent: str,
    key: str,
    typed: str,
    cut: tuple[int, int],
) -> None:
    s = replace(
        summary(n, state, state != "incomplete"),
        intent=intent,
        agent=agent,
        chain=f"{agent} ✓",
        key=f"{key}.json",
    )
    haystack = haystack_of(s)
    text = _as_text(haystack)
    start, length = cut
    piece = text[start % max(len(text), 1) :][:length]
    for term in (typed.casefold(), piece, NEGATED + piece, "trusted", "complete"):
        if not term.strip(NEGATED):
            continue
        plain = term.removeprefix(NEGATED)
        wanted = found_in_text(plain, text)
        assert found_in(as_searched(plain), haystack) is wanted, (term, text)
        negated = term.startswith(NEGATED)
        assert term_found(as_searched(term), haystack) is (wanted != negated), (term, text)


def found_in_text(term: str, text: str) -> bool:
    """``found_in`` as the text itself defines it: held, and for "trusted"/"complete" not
    only as the end of "untrusted"/"incomplete"."""
    prefix = {"trusted": "un", "complete": "in"}.get(term)
    at = text.find(term)
    while at >= 0:
        if prefix is None or text[max(0, at - len(prefix)) : at] != prefix:
            return True
        at = text.find(term, at + 1)
    return False


@settings(max_examples=200, deadline=None)
@given(agent=_NAME, typed=st.lists(_NAME, min_size=1, max_size=3))
def test_an_unshown_part_is_named_as_in_the_text(agent: str, typed: list[str]) -> None:
    """The part of the text a term is found in alone (the agents, the id, the file) is
    the same one whichever form the text is searched in."""
    s = replace(summary(7), agent=agent, chain=f"{agent} ✗ → backup ✓")
    haystack = haystack_of(s)
    terms = tuple(t.casefold() for t in typed if t.strip())
    part = unshown_match(tuple(as_searched(t) for t in terms), haystack)
    text = _as_text(haystack)
    hidden = text.find("\x1c")
    expected = None
    for term in terms:
        if found_in_text(term, text[:hidden]):
            continue
        at = text.find(term, hidden)
        if at < 0:
            break
        expected = max("\x1c\x1d\x1e\x1f", key=lambda mark: text.rfind(mark, 0, at + 1))
        break
    assert part == expected


def test_a_filter_by_a_mark_or_an_accent_finds_its_rows() -> None:
    """Typed as the rows show them: "✗" finds the failed chain, "é" the accented intent,
    "中" the CJK agent."""
    model = ListModel()
    model.replace_all(
        [
            summary(1, chain="agent-a ✗ → backup ✓"),
            replace(summary(2), intent="résumé"),
            replace(summary(3), agent="代理", chain="代理 ✓"),
            summary(4),
        ]
    )
    for query, keys in (
        ("✗", {"00001.json"}),
        ("é", {"00002.json"}),
        ("RÉSUMÉ", {"00002.json"}),
        ("中", set()),
        ("代理", {"00003.json"}),
        ("not 代理", {"00001.json", "00002.json", "00004.json"}),
    ):
        model.set_query(query)
        shown = {model.key_at(i) for i in range(len(model))} - {None}
        assert shown == keys, query
    assert query_terms("not 代理") == (NEGATED + "代理",)


def test_a_searched_text_takes_about_half_the_memory_of_the_text() -> None:
    """One per execution once ``/`` is opened: at 1,000,000 executions the difference was
    870 MB against 480."""
    s = summary(1, chain="agent-a ✗ → backup ✓")
    haystack = haystack_of(s, kind_of(s))
    assert "✓" in searched_words(kind_of(s))  # the row's marks are in it
    assert sys.getsizeof(haystack) < 0.6 * sys.getsizeof(_as_text(haystack))
