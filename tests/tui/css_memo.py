"""Textual's CSS parsed once per test worker, not once per app.

Textual parses every widget's CSS again for each app (its parse cache is the stylesheet's
own), and the suite runs some seven hundred apps on the same few hundred rules: a fifth of
a bare app's start (0.08 s of 0.4 s). Here they are parsed once per worker, for the same CSS
and the same theme variables; a parsed rule set is only read after its parse. A test of
what the app parses itself puts ``TEXTUAL_PARSE_RULES`` back.
"""

from __future__ import annotations

from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

_PARSED: dict[tuple[object, ...], list[RuleSet]] = {}
TEXTUAL_PARSE_RULES = Stylesheet._parse_rules


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
    rules = _PARSED.get(key)
    if rules is None:
        rules = TEXTUAL_PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _PARSED[key] = rules
    return rules


Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]
