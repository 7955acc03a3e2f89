"""Recorded times are kept to the nanosecond; missing ones are filled in deterministically
and flagged."""

from __future__ import annotations

from intentus_tui.core.export.times import SYNTHETIC_STEP_NS, Moment, fill_times, unix_nano

SECOND = 1_000_000_000


def test_iso_times_become_exact_unix_nanoseconds() -> None:
    assert unix_nano("1970-01-01T00:00:00+00:00") == 0
    assert unix_nano("2026-11-25T06:12:33.485245+00:00") == 1795587153485245000
    assert unix_nano("2026-11-25T07:12:33.485245+01:00") == 1795587153485245000
    assert unix_nano("2026-11-25T06:12:33.485245") == 1795587153485245000  # no offset: UTC
    for nothing in (None, "", "yesterday", 17, "1969-12-31T23:59:59+00:00"):
        assert unix_nano(nothing) is None


def test_moments_between_two_recorded_times_are_spaced_evenly() -> None:
    moments = fill_times([10 * SECOND, None, None, None, 14 * SECOND], 0)
    assert [m.unix_nano for m in moments] == [
        10 * SECOND,
        11 * SECOND,
        12 * SECOND,
        13 * SECOND,
        14 * SECOND,
    ]
    assert [m.synthetic for m in moments] == [False, True, True, True, False]


def test_moments_outside_the_recorded_ones_step_a_microsecond_away() -> None:
    moments = fill_times([None, 5 * SECOND, None, None], 0)
    assert moments == [
        Moment(5 * SECOND - SYNTHETIC_STEP_NS, True),
        Moment(5 * SECOND, False),
        Moment(5 * SECOND + SYNTHETIC_STEP_NS, True),
        Moment(5 * SECOND + 2 * SYNTHETIC_STEP_NS, True),
    ]


def test_recorded_times_that_go_backwards_are_kept_and_the_gap_steps_forward() -> None:
    moments = fill_times([9 * SECOND, None, 8 * SECOND], 0)
    assert moments == [
        Moment(9 * SECOND, False),
        Moment(9 * SECOND + SYNTHETIC_STEP_NS, True),
        Moment(8 * SECOND, False),
    ]


def test_with_no_recorded_time_the_story_ends_at_the_fallback() -> None:
    moments = fill_times([None, None, None], 7 * SECOND)
    assert [m.unix_nano for m in moments] == [
        7 * SECOND - 2 * SYNTHETIC_STEP_NS,
        7 * SECOND - SYNTHETIC_STEP_NS,
        7 * SECOND,
    ]
    assert all(m.synthetic for m in moments)
    assert fill_times([], 5) == []
    assert fill_times([None], 0) == [Moment(0, True)]  # never before the epoch
