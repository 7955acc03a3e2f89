"""What ``/`` searches, kept small: each execution's own text as UTF-8 bytes (a ``str``
holding one check mark takes two bytes a character), its verdict's words apart, once per
verdict. A filter must find exactly what a search of the one text it replaced finds
(the words after what the row shows, before what it does not), whatever the execution's
names hold (marks, accents, CJK, a file name's undecodable bytes) and whatever is typed."""

from __future__ import annotations

import sys
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.tui.presenters.list_groups import kind_of
from intentus_tui.tui.presenters.list_model import ListModel
from intentus_tui.tui.presenters.list_search import (
    NEGATED,
    VERDICT_TERMS,
    as_searched,
    found_in,
    haystack_of,
    query_terms,
    searched_words,
    term_found,
    unshown_match,
    verdict_hits,
    verdict_text,
)
from tests.tui.test_list_model import summary

# What names may hold: marks the rows draw, accents, CJK, and an undecodable byte of a
# file name as Python reads it (a lone surrogate).
_NAME = st.text(alphabet=st.sampled_from("abcXYZ-_ .é中✓✗…→⚠↺#?\udcff"), min_size=0, max_size=12)
_STATE = st.sampled_from(["completed", "incomplete", "failed", "tampered"])


def _as_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def _whole_text(haystack: bytes, words: bytes) -> str:
    """The one text the filter searched before: the verdict's words after what the row
    shows of the execution, before what it does not."""
    own = _as_text(haystack)
    hidden = own.find("\x1c")
    return own[:hidden] + _as_text(words) + own[hidden:]


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


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(0, 50),
    state=_STATE,
    writing=st.booleans(),
    intent=_NAME,
    agent=_NAME,
    key=_NAME,
    typed=_NAME,
    cut=st.tuples(st.integers(0, 600), st.integers(1, 14)),
)
def test_a_term_is_found_exactly_where_the_one_text_holds_it(
    n: int,
    state: str,
    writing: bool,
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
    kind = kind_of(s)
    haystack, words = haystack_of(s), verdict_text(kind, writing)
    text = _whole_text(haystack, words)
    start, length = cut
    piece = text[start % max(len(text), 1) :][:length]
    # Terms as a typed query gives them (split at spaces, line breaks and marks alike).
    terms = query_terms(f"{typed} {piece} not {piece} trusted complete failed")
    for term in terms:
        if term in VERDICT_TERMS:
            continue  # asked of the verdict's codes, not searched
        plain = term.removeprefix(NEGATED)
        wanted = found_in_text(plain, text)
        negated = term.startswith(NEGATED)
        assert term_found(as_searched(term), haystack, words) is (wanted != negated), (term, text)
        # Asked once of every verdict, as a filter over many rows asks it.
        in_words = (kind, writing) in verdict_hits(as_searched(plain))
        assert (found_in(as_searched(plain), haystack) or in_words) is wanted
        in_words_plainly = (kind, writing) in verdict_hits(as_searched(plain), plain=True)
        assert in_words_plainly is (plain in _as_text(words))


@settings(max_examples=200, deadline=None)
@given(state=_STATE, agent=_NAME, typed=st.lists(_NAME, min_size=1, max_size=3))
def test_an_unshown_part_is_named_as_in_the_one_text(
    state: str, agent: str, typed: list[str]
) -> None:
    """The part a term is found in alone (the agents, the id, the file) is the one the
    single text named."""
    s = replace(summary(7, state, state != "incomplete"), agent=agent, chain=f"{agent} ✗")
    haystack, words = haystack_of(s), verdict_text(kind_of(s))
    terms = tuple(t.casefold() for t in typed if t.strip())
    part = unshown_match(tuple(as_searched(t) for t in terms), haystack, words)
    text = _whole_text(haystack, words)
    hidden = text.find("\x1c")
    expected = None
    for term in terms:
        if found_in_text(term, text[:hidden]):
            continue
        at = text.find(term, hidden)
        if at >= 0:
            expected = max("\x1c\x1d\x1e\x1f", key=lambda mark: text.rfind(mark, 0, at + 1))
        break
    assert part == expected


def test_a_filter_by_a_mark_a_word_or_an_accent_finds_its_rows() -> None:
    """Typed as the rows show them: "✗" finds the failed chain and the failed verdict,
    "failed" the verdict, "é" the accented intent, "代理" the CJK agent."""
    model = ListModel()
    model.replace_all(
        [
            summary(1, chain="agent-a ✗ → backup ✓"),
            replace(summary(2), intent="résumé"),
            replace(summary(3), agent="代理", chain="代理 ✓"),
            summary(4),
            summary(5, "failed"),
        ]
    )
    for query, keys in (
        ("✗", {"00001.json", "00005.json"}),
        ("failed", {"00005.json"}),
        ("failed 00005", {"00005.json"}),
        ("not failed", {"00001.json", "00002.json", "00003.json", "00004.json"}),
        ("é", {"00002.json"}),
        ("RÉSUMÉ", {"00002.json"}),
        ("中", set()),
        ("代理", {"00003.json"}),
        ("not 代理", {"00001.json", "00002.json", "00004.json", "00005.json"}),
    ):
        model.set_query(query)
        shown = {model.key_at(i) for i in range(len(model))} - {None}
        assert shown == keys, query
    assert query_terms("not 代理") == (NEGATED + "代理",)


def test_an_executions_own_text_is_small() -> None:
    """One per execution once ``/`` is opened: without its verdict's words (kept once per
    verdict) and as bytes, about a third of the one text (at 1,000,000 executions: 870 MB
    as text)."""
    s = summary(1, chain="agent-a ✗ → backup ✓")
    haystack, words = haystack_of(s), verdict_text(kind_of(s))
    assert "✓" in searched_words(kind_of(s))  # the row's marks are in the words
    assert words not in haystack
    assert sys.getsizeof(haystack) < 0.4 * sys.getsizeof(_whole_text(haystack, words))
