"""A long line folded at a terminal's width: broken at spaces, its continuation lines under
its value, a word too long for any line cut without losing a character, wide characters
measured in cells and never parted."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from intentus_tui.render.fold import fold_line, value_column

DIGEST = "56f335984a8ff04013bc997f3847f49ed8f5728ed052de3ae25d6c2e4132a082"
HASH_LINE = (
    f"hash        mismatch: Envelope modified since it was recorded: stored {DIGEST} but "
    "the envelope on disk hashes to 1baff2744477fb74f3c20b745710ea20d9a2b8777c658821052ef7"
    "4758d3f119 (runtime form); no benign explanation found — possible tampering"
)


def test_a_line_that_fits_is_left_as_it_is() -> None:
    line = "agents      (claimed) fb-secondary ✓  (from attempt 2 on)"
    assert fold_line(line, 80) == [line]
    assert fold_line(line, 0) == [line]  # no width known: nothing to fold to


def test_continuation_lines_hang_under_the_value_and_every_word_is_kept() -> None:
    folded = fold_line(HASH_LINE, 80)
    assert folded == [
        "hash        mismatch: Envelope modified since it was recorded: stored",
        f"            {DIGEST} but",
        "            the envelope on disk hashes to",
        "            1baff2744477fb74f3c20b745710ea20d9a2b8777c658821052ef74758d3f119",
        "            (runtime form); no benign explanation found — possible tampering",
    ]
    assert " ".join(folded).split() == HASH_LINE.split()


# Each kind of line and the cell its value begins at (its continuation lines start there).
VALUE_COLUMNS = [
    ("hash        mismatch: …", 12),
    ("  outcome     unknown (untrusted): …", 14),
    ("  last event       #5 FINAL_RESPONSE success", 19),
    ("      - Envelope modified since it was recorded", 8),
    ("      · executionId 'x' differs from the file name", 8),
    ("      verdict: outcome unknown (untrusted), integrity tampered", 15),
    ("FAIL  tampered.json  hash mismatch", 6),
    ("                   (a hint from what was recorded)", 19),
    ("5 checked (5 records, 0 WALs), 2 failed", 0),
    # diff's lines: a changed value under its value, a summary line under its answer
    ('+ events[2].payload.exception: "ssl.SSLError: …"', 31),
    ('  envelope.payload.query: "rate limits" → "reset 2FA"', 26),
    ("first divergence: events[1] (seq 2 / 2): same type", 18),
    ("warning: A is untrusted (integrity tampered): its …", 9),
]


@pytest.mark.parametrize(("line", "column"), VALUE_COLUMNS)
def test_the_value_column_of_each_kind_of_line(line: str, column: int) -> None:
    assert value_column(line) == column


def test_a_word_longer_than_the_room_is_cut_where_it_must_and_nothing_is_lost() -> None:
    line = f"      - stored {DIGEST} but the envelope on disk hashes otherwise"
    folded = fold_line(line, 40)
    assert all(cell_len(part) <= 40 for part in folded), folded
    assert folded[0] == f"      - stored {DIGEST[:25]}"  # begun where it follows
    assert all(part.startswith(" " * 8) and part[8] != " " for part in folded[1:]), folded
    assert "".join("".join(folded).split()) == "".join(line.split())


def test_wide_characters_are_measured_in_cells_and_never_parted() -> None:
    line = "note        " + " ".join(["記録は改ざんされました"] * 6)  # 22 cells a word
    folded = fold_line(line, 40)
    assert all(cell_len(part) <= 40 for part in folded), folded
    assert all(part.startswith(" " * 12) for part in folded[1:]), folded
    assert " ".join(folded).split() == line.split()
    # A run of them longer than the room: cut between characters, at an odd room too.
    word = "改" * 30
    folded = fold_line(f"problem     {word}", 31)
    assert all(cell_len(part) <= 31 for part in folded), folded
    assert "".join("".join(folded).split()) == f"problem{word}"


def test_a_control_character_as_the_sanitizer_shows_it_is_never_cut() -> None:
    word = "evil⟨U+202E⟩" * 6
    folded = fold_line(f"intent      {word}", 30)
    assert all(cell_len(part) <= 30 for part in folded), folded
    for part in folded:
        assert part.count("⟨") == part.count("⟩"), folded
    assert "".join("".join(folded).split()) == f"intent{word}"


def test_a_terminal_narrower_than_the_label_column_keeps_room_for_the_text() -> None:
    folded = fold_line("  untrusted        " + "the record fails its check " * 3, 30)
    assert all(cell_len(part) <= 30 for part in folded), folded
    assert all(part.startswith(" " * 10) and part[10] != " " for part in folded[1:]), folded


def test_leading_spaces_wider_than_the_terminal_shrink_to_the_indent() -> None:
    """An attempt's time alone on its line under its span (``inspect``'s own fold at 80
    columns) on a 40-column terminal: no line of blanks wider than it."""
    assert fold_line(" " * 72 + "—", 40) == [" " * 20 + "—"]
    folded = fold_line(" " * 72 + "open 328d16h (in flight)", 40)
    assert folded == [" " * 20 + "open 328d16h (in", " " * 20 + "flight)"]


def test_an_agents_mark_stays_beside_its_name() -> None:
    """At 40 columns ``inspect``'s chain left ``✓`` alone on a line under
    ``fb-primary ✗ → fb-secondary``: which agent it judged was a line above."""
    line = "agents      fb-primary ✗ → fb-secondary ✓"
    assert fold_line(line, 40) == ["agents      fb-primary ✗ →", "            fb-secondary ✓"]
    assert fold_line("agents      alpha-agent ✗ → beta-agent … → gamma ?", 40) == [
        "agents      alpha-agent ✗ → beta-agent …",
        "            → gamma ?",
    ]
