"""Record timestamps: one shown form (ISO-8601 UTC to the second) and one order."""

from __future__ import annotations

import pytest

from intentus_tui.core.timestamps import parse_timestamp, time_order, utc_text


@pytest.mark.parametrize(
    ("created", "shown"),
    [
        ("2026-11-25T02:51:27.428383+00:00", "2026-11-25T02:51:27Z"),  # what 1.3.0 writes
        ("2026-11-25T02:51:27Z", "2026-11-25T02:51:27Z"),
        ("2026-11-25T04:51:27.9+02:00", "2026-11-25T02:51:27Z"),  # another offset
        ("2026-11-24T21:51:27-05:00", "2026-11-25T02:51:27Z"),
        ("2026-11-25T02:51:27", "2026-11-25T02:51:27Z"),  # no offset: taken as UTC
        ("2026-11-25", "2026-11-25T00:00:00Z"),
        ("yesterday", "yesterday"),  # not a time: shown as it is
        ("0001-01-01T00:00:00+05:00", "0001-01-01T00:00:00+05:00"),  # before year 1 in UTC
        ("", ""),
        (None, ""),
    ],
)
def test_one_shown_form(created: str | None, shown: str) -> None:
    assert utc_text(created) == shown


def test_order_is_by_instant_then_id_with_undated_last() -> None:
    rows = [
        ("2026-11-25T03:00:00+00:00", "late"),
        (None, "none-b"),
        ("2026-11-25T04:30:00+02:00", "early-offset"),  # 02:30 UTC
        ("2026-11-25T02:45:00Z", "same-b"),
        ("garbage", "none-a"),
        ("2026-11-25T02:45:00.000000+00:00", "same-a"),
        ("2026-11-25T02:40:00", "naive"),
    ]
    ordered = [ident for _, ident in sorted(rows, key=lambda r: time_order(*r))]
    assert ordered == ["early-offset", "naive", "same-a", "same-b", "late", "none-a", "none-b"]


def test_parse_keeps_the_instant() -> None:
    a = parse_timestamp("2026-11-25T04:51:27+02:00")
    b = parse_timestamp("2026-11-25T02:51:27Z")
    assert a is not None and a == b
    assert parse_timestamp("2026-13-45T00:00:00Z") is None
