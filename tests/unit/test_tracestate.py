"""Issue 25: a ``tracestate`` over its limit loses whole list members (W3C), never part
of one: the code said it was dropped, and it was cut mid-member."""

from __future__ import annotations

from praxis.observability.tracing import MAX_TRACESTATE, bounded_tracestate, parse_traceparent

PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def test_a_state_within_the_limits_is_kept() -> None:
    assert bounded_tracestate("rojo=00f067aa0ba902b7, congo=t61rcWkgMzE") == (
        "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"
    )


def test_a_long_state_loses_whole_members_from_the_end() -> None:
    members = [f"v{index:02d}=" + "x" * 40 for index in range(20)]  # 20 x 44 characters
    kept = bounded_tracestate(",".join(members))
    assert len(kept) <= MAX_TRACESTATE
    assert kept.split(",") == members[: len(kept.split(","))]  # a prefix of whole members
    context = parse_traceparent(PARENT, ",".join(members))
    assert context is not None and context.state == kept


def test_members_longer_than_128_characters_go_first() -> None:
    big = "big=" + "y" * 200
    small = [f"s{index:02d}=" + "z" * 40 for index in range(8)]
    kept = bounded_tracestate(",".join([small[0], big, *small[1:]]))
    assert kept == ",".join(small)


def test_at_most_32_members() -> None:
    assert len(bounded_tracestate(",".join(f"k{i}=v" for i in range(40))).split(",")) == 32
