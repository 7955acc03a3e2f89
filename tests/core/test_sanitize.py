"""Record text stays inert in a terminal: ``sanitize`` shows every control (ESC, CSI and
OSC sequences, C1, DEL, NUL, CR, bidi and zero-width characters) as a visible placeholder,
and JSON output escapes them (the byte-level check spares the regex only when it is sure
no character a terminal acts on is there)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from intentus_tui.core import sanitize
from intentus_tui.core.sanitize import json_bytes_safe, json_text_safe

# Every character json_text_safe escapes, their neighbours, and text that shares lead bytes.
EDGES = [
    "\x7e", "\x7f", "\x80", "\x9b", "\x9f", "\xa0", "é", "\u061b", "\u061c", "\u061d",
    "\u200a", "\u200b", "\u200f", "\u2010", "—", "“", "\u2029", "\u202a", "\u202e", "\u202f",
    "\u205f", "\u2060", "\u2069", "\u206a", "→", "\ufefe", "\ufeff", "\uff00", "😀", "a", '"',
]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(EDGES), max_size=12), max_size=4))
def test_bytes_and_text_versions_agree(values: list[str]) -> None:
    text = json.dumps(values, ensure_ascii=False)
    expected = json_text_safe(text).encode("utf-8")
    assert json_bytes_safe(text.encode("utf-8")) == expected
    native, sanitize._native_has_controls = sanitize._native_has_controls, None
    try:  # without the native check (no C compiler): the same bytes
        assert json_bytes_safe(text.encode("utf-8")) == expected
    finally:
        sanitize._native_has_controls = native


def test_terminal_controls_are_escaped_and_plain_text_is_kept_as_is() -> None:
    row = json.dumps({"chain": "a ✓ → b ✗", "intent": "x\x9b2J\u202eevil"}, ensure_ascii=False)
    safe = json_bytes_safe(row.encode())
    assert b"\xc2\x9b" not in safe and "\u202e".encode() not in safe
    assert json.loads(safe) == json.loads(row)  # the same JSON value
    plain = "a ✓ → b ✗ é 日本".encode()
    assert json_bytes_safe(plain) is plain  # no regex pass, no copy
    quoted = "— “quoted”".encode()  # shares lead bytes with U+200B..: checked, unchanged
    assert json_bytes_safe(quoted) == quoted


# ---------------------------------------------------------------------------------------
# sanitize(): record text a terminal would act on is shown, never passed through

ESC = "\x1b"
# What each kind of terminal control looks like once made visible (control pictures for
# C0 and DEL, ⟨hex⟩ for C1 and the invisible format characters).
VISIBLE_CASES = [
    ("ESC alone", ESC, "␛"),
    ("CSI colour", f"{ESC}[31mred", "␛[31mred"),
    ("CSI clear screen", f"{ESC}[2J", "␛[2J"),
    ("CSI cursor home then text", f"{ESC}[Hfake prompt$ ", "␛[Hfake prompt$ "),
    (
        "OSC 8 hyperlink",
        f"{ESC}]8;;https://evil.example{ESC}\\click{ESC}]8;;{ESC}\\",
        "␛]8;;https://evil.example␛\\click␛]8;;␛\\",
    ),
    ("OSC 52 clipboard write", f"{ESC}]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"),
    ("OSC window title", f"{ESC}]0;title\x07", "␛]0;title␇"),
    ("8-bit C1 CSI", "\x9b2J", "⟨9B⟩2J"),
    ("8-bit C1 OSC and ST", "\x9d0;t\x9c", "⟨9D⟩0;t⟨9C⟩"),
    ("DEL", "a\x7fb", "a␡b"),
    ("NUL", "a\x00b", "a␀b"),
    ("carriage return", "safe\rEVIL", "safe␍EVIL"),
    ("backspace", "abc\x08\x08\x08xyz", "abc␈␈␈xyz"),
    ("BEL", "\x07", "␇"),
    ("right-to-left override", "file\u202egnp.exe", "file⟨U+202E⟩gnp.exe"),
    ("bidi isolates", "\u2066a\u2067b\u2068c\u2069", "⟨U+2066⟩a⟨U+2067⟩b⟨U+2068⟩c⟨U+2069⟩"),
    ("bidi embeddings and marks", "\u202a\u202b\u202c\u202d\u200e\u200f", None),
    ("zero-width characters", "a\u200bb\u200dc\ufeff", "a⟨U+200B⟩b⟨U+200D⟩c⟨U+FEFF⟩"),
    ("lone surrogate", "\ud800", "⟨U+D800⟩"),
]
NEVER_PASSED = (
    [chr(c) for c in range(0x20) if chr(c) not in "\n\t"]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + list("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060")
    + list("\u2066\u2067\u2068\u2069\ufeff")
    # the invisible operators and the interlinear annotation marks, which hide a text too
    + list("\u2061\u2062\u2063\u2064\ufff9\ufffa\ufffb")
    # invisible, and able to hide text: the soft hyphen, line and paragraph separators,
    # the Mongolian vowel separator, and the tag characters (a hidden ASCII text)
    + list("\u00ad\u2028\u2029\u180e")
    + [chr(c) for c in range(0xE0000, 0xE0080)]
)


def _passed_through(text: str) -> list[str]:
    return [hex(ord(c)) for c in text if c in NEVER_PASSED or 0xD800 <= ord(c) <= 0xDFFF]


@pytest.mark.parametrize(("name", "raw", "shown"), VISIBLE_CASES, ids=[c[0] for c in VISIBLE_CASES])
def test_terminal_controls_are_made_visible(name: str, raw: str, shown: str | None) -> None:
    for clean in (sanitize.sanitize(raw), sanitize.sanitize_line(raw)):
        assert not _passed_through(clean), name
        if shown is not None:
            assert clean == shown
        assert sanitize.is_clean(clean)
    assert not sanitize.is_clean(raw)


def test_every_c0_c1_and_del_character_gets_its_own_visible_placeholder() -> None:
    controls = [c for c in NEVER_PASSED if ord(c) < 0xA0]
    shown = [sanitize.sanitize_line(c) for c in controls]
    assert not any(_passed_through(s) for s in shown)
    assert len(set(shown)) == len(controls)  # told apart: ␛ is not ␍ is not ⟨9B⟩
    assert all(s.strip() for s in shown)  # nothing blank


def test_newlines_and_tabs_are_kept_in_text_and_shown_in_one_line_cells() -> None:
    text = "line one\n\tindented\r\nend"
    assert sanitize.sanitize(text) == "line one\n\tindented␍\nend"
    assert sanitize.sanitize_line(text) == "line one␊␉indented␍␊end"
    assert sanitize.is_clean("a\nb\tc")


def test_clean_text_is_returned_unchanged() -> None:
    text = "Summarize → Übersetzen ☂ 日本語 😀 [b]markup[/b] ␛ already a picture"
    assert sanitize.sanitize(text) is text
    assert sanitize.sanitize_line(text) == text


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=40))
@example("\ufff9")  # found by Hypothesis: made visible, as it should be
@example("a\u2062b")
def test_no_control_ever_passes_and_the_rest_is_kept_in_order(text: str) -> None:
    for clean, kept in ((sanitize.sanitize(text), "\n\t"), (sanitize.sanitize_line(text), "")):
        assert not _passed_through(clean)
        assert sanitize.is_clean(clean) and sanitize.sanitize(clean) == clean  # idempotent
        visible = [c for c in text if c not in NEVER_PASSED and not 0xD800 <= ord(c) <= 0xDFFF]
        # what was not a control is all still there, in order (placeholders in between)
        position = 0
        for char in visible:
            if char in "\n\t" and not kept:
                continue
            position = clean.index(char, position) + 1


def test_a_text_hidden_in_tag_characters_and_soft_hyphens_is_shown() -> None:
    # "ok" followed by "rm -rf" written in invisible tag characters
    hidden = "ok" + "".join(chr(0xE0000 + ord(c)) for c in "rm -rf") + "pay\u00adload"
    shown = sanitize.sanitize_line(hidden)
    assert shown.startswith("ok\u27e8U+E0072\u27e9\u27e8U+E006D\u27e9")
    assert "pay\u27e8U+00AD\u27e9load" in shown
    assert not _passed_through(shown)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F) | st.sampled_from(EDGES), max_size=30))
def test_printable_ascii_passes_sanitize_line_exactly_as_the_regex_finds_it(text: str) -> None:
    # sanitize_line returns printable ASCII at once: the regex would have found nothing.
    by_regex = sanitize._UNSAFE_LINE.sub(sanitize._replace, text)
    assert sanitize.sanitize_line(text) == by_regex
