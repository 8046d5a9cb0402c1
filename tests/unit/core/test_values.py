"""Wire value rules: canonical decimals, the bounded document profile, digests, ids."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from praxis.core import values
from praxis.core.rejection import Rejection

CANONICAL = [
    "0",
    "1",
    "-1",
    "10",
    "0.5",
    "-0.5",
    "123.456",
    "9007199254740993",
    "0.000000000000000000001",
    "100000000000000000000000000000001",
]
NOT_CANONICAL = [
    "",
    "-0",
    "01",
    "1.50",
    "1.",
    ".5",
    "+1",
    "1e3",
    "1E3",
    "0x10",
    " 1",
    "1 ",
    "1,5",
    "NaN",
    "Infinity",
    "-",
    "--1",
    "0.0",
    "-0.0",
    "٣",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_decimals_round_trip(text: str) -> None:
    parsed = values.parse_decimal(text, "x")
    assert isinstance(parsed, Decimal)
    assert values.format_decimal(parsed) == text


@pytest.mark.parametrize("text", NOT_CANONICAL)
def test_non_canonical_decimals_are_rejected(text: str) -> None:
    result = values.parse_decimal(text, "cost")
    assert isinstance(result, Rejection)
    assert result.reason == "DECIMAL_NOT_CANONICAL"
    assert result.violations[0].field == "cost"


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_format_then_parse_is_exact(value: Decimal) -> None:
    text = values.format_decimal(value)
    assert values.is_canonical_decimal(text)
    assert Decimal(text) == value


@given(st.text(alphabet="0123456789.-+eE", max_size=12))
def test_canonical_iff_format_is_identity(text: str) -> None:
    parsed = values.parse_decimal(text, "x")
    if not isinstance(parsed, Rejection):
        assert values.format_decimal(parsed) == text
        return
    try:
        number = Decimal(text)
    except ArithmeticError:  # not a number at all
        return
    if number.is_finite() and abs(number.adjusted()) < 1000:  # '1E999999' would be huge
        assert values.format_decimal(number) != text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"a":1,"a":2}', "DOCUMENT_DUPLICATE_KEY"),
        ('{"a":{"b":1,"b":1}}', "DOCUMENT_DUPLICATE_KEY"),
        ('{"a":1.5}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":1e3}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":9007199254740992}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":-9007199254740992}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":NaN}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":Infinity}', "DOCUMENT_NUMBER_FORBIDDEN"),
        ('{"a":1', "DOCUMENT_MALFORMED"),
        ("", "DOCUMENT_MALFORMED"),
        ('"\\ud800"', "DOCUMENT_MALFORMED"),
        ("[" * 65 + "]" * 65, "DOCUMENT_TOO_DEEP"),
    ],
)
def test_bad_documents(text: str, reason: str) -> None:
    result = values.parse_document(text, "doc")
    assert isinstance(result, Rejection) and result.reason == reason, result


def test_safe_integer_edges_are_allowed() -> None:
    assert values.parse_document("[9007199254740991,-9007199254740991]", "d") == [
        2**53 - 1,
        -(2**53 - 1),
    ]


def test_depth_in_strings_does_not_count() -> None:
    assert values.parse_document(json.dumps({"a": "[[[[[[" * 30}), "d") == {"a": "[[[[[[" * 30}


def test_size_cap() -> None:
    profile = values.DocumentProfile(max_bytes=10)
    result = values.parse_document('"0123456789"', "d", profile)
    assert isinstance(result, Rejection) and result.reason == "DOCUMENT_TOO_LARGE"


@pytest.mark.parametrize("version", [None, 0, 2, "1", True, 1.0])
def test_unknown_versions_rejected(version: object) -> None:
    text = json.dumps({"version": version}) if version is not None else "{}"
    result = values.parse_versioned_document(text, "d")
    assert isinstance(result, Rejection)
    assert result.reason in ("DOCUMENT_VERSION_UNSUPPORTED", "DOCUMENT_NUMBER_FORBIDDEN")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_documents_round_trip_through_canonical_json(value: object) -> None:
    text = values.canonical_json(value)
    assert values.parse_document(text, "d") == value
    assert values.canonical_json(json.loads(text)) == text


@given(st.dictionaries(st.text(max_size=4), st.integers(0, 9), max_size=6))
def test_digest_ignores_key_order_and_whitespace(value: dict[str, int]) -> None:
    reordered = dict(reversed(list(value.items())))
    assert values.digest(value) == values.digest(reordered)
    assert values.digest(json.loads(json.dumps(value, indent=3))) == values.digest(value)


def test_canonical_json_sorts_by_utf16_code_units() -> None:
    # U+FB01 sorts after U+1D11E in UTF-16 (0xFB01 > 0xD834), unlike in code points.
    assert values.canonical_json({"\ufb01": 1, "\U0001d11e": 2}) == '{"\U0001d11e":2,"\ufb01":1}'
    assert values.canonical_json({"b": [1, "\u0007"], "a": None}) == '{"a":null,"b":[1,"\\u0007"]}'


@pytest.mark.parametrize("good", ["wo-1", "a", "x" * 128, "Ünïcødé", "名前", "a.b:c@d_e"])
def test_identifiers(good: str) -> None:
    assert values.identifier_problem(good) is None


@pytest.mark.parametrize("bad", ["", "x" * 129, "a b", "a/b", "a\nb", "a\x00", "a#b", "💥"])
def test_bad_identifiers(bad: str) -> None:
    assert values.identifier_problem(bad) is not None


@given(json_values)
def test_fast_canonical_json_equals_the_reference(value: object) -> None:
    assert values.canonical_json(value) == values.canonical_json_slow(value)
