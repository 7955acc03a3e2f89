"""The command palette over many executions: each key typed is taken while the palette
looks through them (a newer query drops the older search), and what it finds is what it
found looking at every one of them alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from intentus_tui.tui.commands import ExecutionCommands
from tests.tui.app_support import make_app, settle
from tests.tui.test_list_model import summary

MANY = 5000


async def test_a_key_typed_while_the_palette_searches_is_taken_before_it_ends(
    records_dir: Path,
) -> None:
    # The search held the event loop for its whole pass: at 100,000 executions each key
    # typed into the palette waited ~0.3 s for the search of the key before it.
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.execution_list.model.replace_all(summary(n) for n in range(MANY))
        provider = ExecutionCommands(app.screen)
        taken: list[str] = []
        asyncio.get_running_loop().call_soon(taken.append, "the next key")
        hits = provider.search("translate")
        first = await anext(hits)
        assert taken == ["the next key"]
        found = [first.text] + [hit.text async for hit in hits]
        assert len(found) == 40 and all("translate" in text for text in found)


async def test_the_palette_finds_the_same_with_the_filters_texts_made(
    records_dir: Path,
) -> None:
    app = make_app(records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        model = app.execution_list.model
        model.replace_all(
            [summary(n) for n in range(300)] + [summary(n, "tampered") for n in range(300, 330)]
        )
        provider = ExecutionCommands(app.screen)

        async def found(query: str) -> list[tuple[float, str | None]]:
            return [(hit.score, hit.text) async for hit in provider.search(query)]

        queries = ("0031", "tampered", "classify", "not replayable", "00299.json", "nothing")
        before = [await found(query) for query in queries]
        model.set_query("a")  # "/" typed: the searched texts are made
        assert model.unsearched_count() == 0
        assert [await found(query) for query in queries] == before
        assert before[0] and before[1] and not before[-1]
